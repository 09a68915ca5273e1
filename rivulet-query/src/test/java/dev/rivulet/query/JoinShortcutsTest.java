package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code innerJoin}, {@code leftJoin}, {@code rightJoin}, {@code fullJoin}: the same IR as {@code join(kind, ..)}. */
class JoinShortcutsTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, owner INT"), List.of("id"));
  private final SourceCollection users = db.collection("users", Schema.parse("id INT NOT NULL, name STRING"),
      List.of("id"));

  @Test
  void shortcutsBuildTheJoinOfTheirKind() {
    QueryIR.On on = Query.on("i.owner", "u.id");
    Query base = Query.from("i", issues);
    assertThat(base.innerJoin("u", users, on).raw()).isEqualTo(base.join(QueryIR.JoinKind.INNER, "u", users, on).raw());
    assertThat(base.leftJoin("u", users, on).raw()).isEqualTo(base.join(QueryIR.JoinKind.LEFT, "u", users, on).raw());
    assertThat(base.rightJoin("u", users, on).raw()).isEqualTo(base.join(QueryIR.JoinKind.RIGHT, "u", users, on).raw());
    assertThat(base.fullJoin("u", users, on).raw()).isEqualTo(base.join(QueryIR.JoinKind.FULL, "u", users, on).raw());
    Query sub = Query.from("x", users);
    assertThat(base.innerJoin("u", sub, on).raw()).isEqualTo(base.join(QueryIR.JoinKind.INNER, "u", sub, on).raw());
    assertThat(base.leftJoin("u", sub, on).raw()).isEqualTo(base.join(QueryIR.JoinKind.LEFT, "u", sub, on).raw());
    assertThat(base.rightJoin("u", sub, on).raw()).isEqualTo(base.join(QueryIR.JoinKind.RIGHT, "u", sub, on).raw());
    assertThat(base.fullJoin("u", sub, on).raw()).isEqualTo(base.join(QueryIR.JoinKind.FULL, "u", sub, on).raw());
  }

  @Test
  void shortcutsRunAsJoins() {
    users.beginSync().write(Row.of(1, "ann")).write(Row.of(2, "bob")).markReady().commit();
    issues.beginSync().write(Row.of(10, 1)).write(Row.of(11, null)).markReady().commit();
    Query q = Query.from("i", issues);
    QueryIR.On on = Query.on("i.owner", "u.id");
    QueryIR.SelectItem[] items = {Query.as("issue", col("i.id")), Query.as("name", col("u.name"))};
    assertThat(db.liveQuery("inner", q.innerJoin("u", users, on).select(items)).rows())
        .containsExactlyInAnyOrder(Row.of(10, "ann"));
    assertThat(db.liveQuery("left", q.leftJoin("u", users, on).select(items)).rows())
        .containsExactlyInAnyOrder(Row.of(10, "ann"), Row.of(11, null));
    assertThat(db.liveQuery("right", q.rightJoin("u", users, on).select(items)).rows())
        .containsExactlyInAnyOrder(Row.of(10, "ann"), Row.of(null, "bob"));
    assertThat(db.liveQuery("full", q.fullJoin("u", users, on).select(items)).rows())
        .containsExactlyInAnyOrder(Row.of(10, "ann"), Row.of(11, null), Row.of(null, "bob"));
  }
}
