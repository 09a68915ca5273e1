package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.isNull;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Compiled query shapes checked by example: keyset starts ({@code after}) under every direction
 * and NULL placement, null-extended relations seen as nullable, select-all column names, and the
 * errors of distinct with order by and of a cursor of the wrong width.
 */
class CompiledShapesTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection items = db.collection("items", Schema.parse("id INT NOT NULL, p INT, s STRING"),
      List.of("id"));
  private final SourceCollection tags = db.collection("tags", Schema.parse("id INT NOT NULL, item INT, tag STRING"),
      List.of("id"));

  private void load() {
    items.beginSync()
        .write(Row.of(1, 10, "a")).write(Row.of(2, null, "b")).write(Row.of(3, 20, "c"))
        .write(Row.of(4, 10, "d")).write(Row.of(5, null, "e"))
        .markReady().commit();
    tags.beginSync().write(Row.of(100, 1, "x")).write(Row.of(101, 3, "y")).write(Row.of(102, 3, "z")).markReady()
        .commit();
  }

  private List<Object> idsAfter(QueryIR.OrderItem order, Object... cursor) {
    LiveQuery q = db.liveQuery("q" + System.nanoTime(), Query.from("i", items).orderBy(order).after(Cursor.of(cursor)));
    return q.rows().stream().map(r -> r.get(0)).toList();
  }

  @Test
  void afterFollowsEachDirectionAndNullPlacement() {
    load();
    // asc, nulls last: 1(10) 4(10) 3(20) 2(null) 5(null)
    assertThat(idsAfter(Query.asc(col("i.p")), 10, 1)).containsExactly(4L, 3L, 2L, 5L);
    assertThat(idsAfter(Query.asc(col("i.p")), 10, 4)).containsExactly(3L, 2L, 5L);
    assertThat(idsAfter(Query.asc(col("i.p")), null, 2)).containsExactly(5L);
    assertThat(idsAfter(Query.asc(col("i.p")), 20, 3)).containsExactly(2L, 5L);
    // desc, nulls first: 2(null) 5(null) 3(20) 1(10) 4(10)
    assertThat(idsAfter(Query.desc(col("i.p")), null, 2)).containsExactly(5L, 3L, 1L, 4L);
    assertThat(idsAfter(Query.desc(col("i.p")), 20, 3)).containsExactly(1L, 4L);
    assertThat(idsAfter(Query.desc(col("i.p")), 15, 0)).as("between rows").containsExactly(1L, 4L);
    // asc, nulls first: 2(null) 5(null) 1(10) 4(10) 3(20)
    assertThat(idsAfter(Query.nullsFirst(Query.asc(col("i.p"))), null, 5)).containsExactly(1L, 4L, 3L);
    assertThat(idsAfter(Query.nullsFirst(Query.asc(col("i.p"))), 10, 1)).containsExactly(4L, 3L);
    // desc, nulls last: 3(20) 1(10) 4(10) 2(null) 5(null)
    assertThat(idsAfter(Query.nullsLast(Query.desc(col("i.p"))), 10, 4)).containsExactly(2L, 5L);
    assertThat(idsAfter(Query.nullsLast(Query.desc(col("i.p"))), 30, 0)).containsExactly(3L, 1L, 4L, 2L, 5L);
  }

  @Test
  void aCursorOfTheWrongWidthIsRefused() {
    assertThatThrownBy(() -> db.liveQuery("w", Query.from("i", items).orderBy(Query.asc(col("i.p")))
        .after(Cursor.of(10))))
        .isInstanceOf(QueryException.class).hasMessageContaining("after: the cursor [10] has 1 values")
        .hasMessageContaining("needs 2");
  }

  @Test
  void aNullExtendedRelationIsNullableInConditions() {
    load();
    // Items without a tag: the tag side's NOT NULL id is NULL there.
    LiveQuery untagged = db.liveQuery("untagged", Query.from("i", items)
        .join(QueryIR.JoinKind.LEFT, "t", tags, Query.on("i.id", "t.item"))
        .where(isNull(col("t.id")))
        .select(Query.as("id", col("i.id"))));
    assertThat(untagged.rows()).containsExactlyInAnyOrder(Row.of(2), Row.of(4), Row.of(5));
    LiveQuery orphans = db.liveQuery("orphans", Query.from("t", tags)
        .join(QueryIR.JoinKind.RIGHT, "i", items, Query.on("t.item", "i.id"))
        .where(isNull(col("t.id")))
        .select(Query.as("id", col("i.id"))));
    assertThat(orphans.rows()).containsExactlyInAnyOrder(Row.of(2), Row.of(4), Row.of(5));
  }

  @Test
  void selectAllNamesColumnsByAliasOnlyOverSeveralRelations() {
    load();
    LiveQuery one = db.liveQuery("one", Query.from("i", items));
    assertThat(one.resultSchema().names()).containsExactly("id", "p", "s");
    LiveQuery two = db.liveQuery("two", Query.from("i", items)
        .join(QueryIR.JoinKind.LEFT, "t", tags, Query.on("i.id", "t.item")));
    assertThat(two.resultSchema().names()).containsExactly("i.id", "i.p", "i.s", "t.id", "t.item", "t.tag");
    assertThat(two.resultSchema().column(3).nullable()).as("null-extended").isTrue();
    assertThat(two.rows()).contains(Row.of(2, null, "b", null, null, null), Row.of(3, 20, "c", 102, 3, "z"));
  }

  @Test
  void distinctNeedsTheOrderInTheSelectList() {
    assertThatThrownBy(() -> db.liveQuery("d", Query.from("i", items).select(Query.as("s", col("i.s"))).distinct()
        .orderBy(Query.asc(col("i.p")))))
        .isInstanceOf(QueryException.class).hasMessageContaining("with distinct")
        .hasMessageContaining("must be a column of the select list");
    LiveQuery ok = db.liveQuery("ok", Query.from("i", items).where(eq(col("i.p"), lit(10)))
        .select(Query.as("p", col("i.p"))).distinct().orderBy(Query.asc(col("i.p"))));
    load();
    assertThat(ok.rows()).containsExactly(Row.of(10));
  }
}
