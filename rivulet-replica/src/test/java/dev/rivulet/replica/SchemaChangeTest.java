package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.query.LiveCollection;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.QueryException;
import dev.rivulet.query.SourceCollection;
import dev.rivulet.query.Status;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Schema changes through the replica, on both backends: a created table is mirrored and captured,
 * a dropped table's live queries fail naming it, an altered table's mirror is re-loaded with the
 * new columns and its live queries re-created (or failed naming the missing column), never left
 * showing stale rows.
 */
class SchemaChangeTest {
  @TempDir
  Path dir;

  private static final String SCHEMA = "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, qty INTEGER);"
      + "CREATE TABLE tags (id INTEGER PRIMARY KEY, item INTEGER, tag TEXT);"
      + "INSERT INTO items VALUES (1, 'a', 3), (2, 'b', 0), (3, 'c', 8);"
      + "INSERT INTO tags VALUES (10, 1, 'x'), (11, 3, 'y')";

  private String setUp(Backends b, String name) throws SQLException {
    String url = b.url(dir, name);
    b.run(url, SCHEMA);
    return url;
  }

  /** Failures the replicas' databases reported (instead of logging them). */
  private final List<LiveCollection> reported = new ArrayList<>();

  private SqliteReplica open(Backends b, String url) throws SQLException {
    SqliteReplica r = b.open(url);
    r.rivulet().onError((source, error) -> reported.add(source));
    return r;
  }

  private static List<Row> sql(Connection c, String query) throws SQLException {
    return SqlRows.read(c, query);
  }

  @ParameterizedTest
  @EnumSource(Backends.class)
  void aCreatedTableWithAPrimaryKeyIsMirroredAndCaptured(Backends b) throws SQLException {
    String url = setUp(b, "created");
    try (SqliteReplica r = open(b, url); Connection read = b.connect(url)) {
      List<SchemaChange> changes = new ArrayList<>();
      r.onSchemaChange(changes::add);
      List<Exception> refused = new ArrayList<>();
      r.onSchemaChange(c -> {
        try {
          r.execute("INSERT INTO items VALUES (99, 'from a listener', 0)");
        } catch (SQLException | RuntimeException e) {
          refused.add(e);
        }
      });
      r.execute(b.ddl("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)"));
      assertThat(refused).singleElement().asString().contains("callback");
      r.execute(b.ddl("CREATE TABLE nokey (body TEXT)"));
      r.execute("CREATE INDEX items_qty ON items (qty)");
      assertThat(changes).extracting(SchemaChange::created).containsExactly(List.of("notes"), List.of("nokey"));
      r.execute("INSERT INTO notes VALUES (1, 'one'), (2, 'two')");
      LiveQuery notes = r.liveQuery("notes", Query.from("n", r.table("notes")).orderBy(Query.asc(col("n.id"))));
      r.execute("UPDATE notes SET body = body || '!' WHERE id = 2");
      r.execute("INSERT INTO notes VALUES (3, 'three')");
      assertThat(notes.rows()).hasSize(3).isEqualTo(sql(read, "SELECT * FROM notes ORDER BY id"));
      assertThatThrownBy(() -> r.table("nokey")).hasMessageContaining("table 'nokey' has no primary key");
      LiveQuery items = r.liveQuery("items", Query.from("i", r.table("items")).orderBy(Query.asc(col("i.id"))));
      r.execute("UPDATE items SET qty = qty + 1");
      assertThat(items.rows()).as("capture of the old tables goes on after the DDL")
          .isEqualTo(sql(read, "SELECT * FROM items ORDER BY id"));
    }
  }

  @ParameterizedTest
  @EnumSource(Backends.class)
  void aDroppedTableFailsItsLiveQueriesNamingIt(Backends b) throws SQLException {
    String url = setUp(b, "dropped");
    try (SqliteReplica r = open(b, url); Connection read = b.connect(url)) {
      SourceCollection tags = r.table("tags");
      LiveQuery byTag = r.liveQuery("byTag", Query.from("t", tags).where(eq(col("t.tag"), lit("x"))));
      LiveQuery joined = r.liveQuery("joined", Query.from("i", r.table("items"))
          .innerJoin("t", tags, Query.on("i.id", "t.item"))
          .select(Query.as("name", col("i.name")), Query.as("tag", col("t.tag"))));
      LiveQuery items = r.liveQuery("items", Query.from("i", r.table("items")).orderBy(Query.asc(col("i.id"))));
      List<SchemaChange> changes = new ArrayList<>();
      r.onSchemaChange(changes::add);
      r.execute("DROP TABLE tags");
      assertThat(changes).singleElement().extracting(SchemaChange::dropped).isEqualTo(List.of("tags"));
      assertThat(changes.get(0).queries()).extracting(q -> q.before()).containsExactly(byTag, joined);
      assertThat(changes.get(0).queries()).allSatisfy(q -> assertThat(q.after()).isNull());
      assertThat(tags.status()).isEqualTo(Status.CLOSED);
      assertThat(reported).as("the failed live queries are reported").containsExactly(byTag, joined);
      for (LiveQuery q : List.of(byTag, joined)) {
        assertThat(q.status()).isEqualTo(Status.ERROR);
        assertThat(q.error()).hasMessageContaining("'tags'");
        assertThatThrownBy(() -> r.current(q)).isInstanceOf(QueryException.class).hasMessageContaining("'tags'");
      }
      assertThatThrownBy(() -> r.table("tags")).hasMessageContaining("no table 'tags'");
      assertThat(r.current(items)).as("a query over another table is left alone").isSameAs(items);
      r.execute("DELETE FROM items WHERE id = 2");
      assertThat(items.rows()).isEqualTo(sql(read, "SELECT * FROM items ORDER BY id"));
    }
  }

  @ParameterizedTest
  @EnumSource(Backends.class)
  void anAddedColumnReloadsTheMirrorAndRecreatesItsLiveQueries(Backends b) throws SQLException {
    String url = setUp(b, "added");
    try (SqliteReplica r = open(b, url); Connection read = b.connect(url)) {
      SourceCollection before = r.table("items");
      LiveQuery all = r.liveQuery("all", Query.from("i", before).orderBy(Query.asc(col("i.id"))));
      LiveQuery stocked = r.liveQuery("stocked", Query.from("i", before).where(gt(col("i.qty"), lit(0)))
          .select(Query.as("id", col("i.id")), Query.as("name", col("i.name"))).orderBy(Query.asc(col("i.id"))));
      LiveQuery over = r.liveQuery("over", Query.from("s", stocked).where(gt(col("s.id"), lit(1))));
      LiveQuery withTags = r.liveQuery("withTags", Query.from("i", before)
          .select(Query.as("id", col("i.id")), Query.include("tags", Query.from("t", r.table("tags"))
              .where(eq(col("t.item"), col("i.id"))).select(Query.as("tag", col("t.tag")))))
          .orderBy(Query.asc(col("i.id"))));
      int tagRows = withTags.rows().size();
      LiveQuery closed = r.liveQuery("closed", Query.from("i", before));
      closed.close();
      List<SchemaChange> changes = new ArrayList<>();
      r.onSchemaChange(changes::add);
      r.execute("ALTER TABLE items ADD COLUMN price INTEGER DEFAULT 5");
      assertThat(changes).singleElement().satisfies(c -> {
        assertThat(c.altered()).containsExactly("items");
        assertThat(c.queries()).as("a closed live query is not brought back").extracting(q -> q.before())
            .containsExactly(all, stocked, over, withTags);
        assertThat(c.queries()).allSatisfy(q -> assertThat(q.error()).isNull());
      });
      assertThat(before.status()).isEqualTo(Status.CLOSED);
      assertThat(all.status()).as("the old live query is closed off").isEqualTo(Status.ERROR);
      assertThat(r.table("items").schema().names()).containsExactly("id", "name", "qty", "price");
      LiveQuery all2 = r.current(all);
      LiveQuery stocked2 = r.current(stocked);
      LiveQuery over2 = r.current(over);
      assertThat(List.of(all2, stocked2, over2, r.current(withTags))).doesNotContain(all, stocked, over, withTags);
      assertThat(all2.rows()).as("hydrated with the new column").isEqualTo(sql(read, "SELECT * FROM items ORDER BY id"));
      assertThat(r.current(withTags).rows()).hasSize(tagRows);
      r.execute("INSERT INTO items (id, name, qty, price) VALUES (4, 'd', 2, 9)");
      r.execute("UPDATE items SET qty = 0, price = price + 1 WHERE id = 3");
      assertThat(all2.rows()).isEqualTo(sql(read, "SELECT * FROM items ORDER BY id"));
      assertThat(stocked2.rows()).isEqualTo(sql(read, "SELECT id, name FROM items WHERE qty > 0 ORDER BY id"));
      assertThat(over2.rows()).as("a live query over a re-created one follows it")
          .containsExactlyInAnyOrderElementsOf(sql(read, "SELECT id, name FROM items WHERE qty > 0 AND id > 1"));
    }
  }

  @ParameterizedTest
  @EnumSource(Backends.class)
  void aDroppedColumnFailsTheQueriesThatReadItNamingTheColumn(Backends b) throws SQLException {
    String url = setUp(b, "dropcol");
    try (SqliteReplica r = open(b, url); Connection read = b.connect(url)) {
      LiveQuery byQty = r.liveQuery("byQty", Query.from("i", r.table("items")).where(gt(col("i.qty"), lit(1)))
          .select(Query.as("id", col("i.id"))));
      LiveQuery names = r.liveQuery("names", Query.from("i", r.table("items"))
          .select(Query.as("id", col("i.id")), Query.as("name", col("i.name"))).orderBy(Query.asc(col("i.id"))));
      List<SchemaChange> changes = new ArrayList<>();
      r.onSchemaChange(changes::add);
      r.execute("ALTER TABLE items DROP COLUMN qty");
      assertThat(changes).singleElement().extracting(SchemaChange::altered).isEqualTo(List.of("items"));
      assertThat(byQty.status()).isEqualTo(Status.ERROR);
      assertThatThrownBy(() -> r.current(byQty)).isInstanceOf(QueryException.class).hasMessageContaining("byQty")
          .hasMessageContaining("qty");
      assertThat(changes.get(0).queries()).filteredOn(q -> q.before() == byQty).singleElement()
          .satisfies(q -> assertThat(q.error()).hasMessageContaining("qty"));
      LiveQuery names2 = r.current(names);
      r.execute("UPDATE items SET name = 'z' WHERE id = 1");
      r.execute("INSERT INTO items VALUES (5, 'e')");
      assertThat(names2.rows()).isEqualTo(sql(read, "SELECT id, name FROM items ORDER BY id"));
      assertThat(r.table("items").rows()).hasSize(4).allSatisfy(row -> assertThat(row.width()).isEqualTo(2));
    }
  }

  @ParameterizedTest
  @EnumSource(Backends.class)
  void aRenamedTableIsDroppedUnderItsOldNameAndMirroredUnderItsNew(Backends b) throws SQLException {
    String url = setUp(b, "renamed");
    try (SqliteReplica r = open(b, url); Connection read = b.connect(url)) {
      LiveQuery tags = r.liveQuery("tags", Query.from("t", r.table("tags")));
      r.execute("ALTER TABLE tags RENAME TO labels");
      assertThat(tags.status()).isEqualTo(Status.ERROR);
      assertThat(tags.error()).hasMessageContaining("'tags'");
      r.execute("INSERT INTO labels VALUES (12, 2, 'z')");
      LiveQuery labels = r.liveQuery("labels", Query.from("l", r.table("labels")).orderBy(Query.asc(col("l.id"))));
      r.execute("DELETE FROM labels WHERE id = 10");
      assertThat(labels.rows()).hasSize(2).isEqualTo(sql(read, "SELECT * FROM labels ORDER BY id"));
    }
  }

  @ParameterizedTest
  @EnumSource(Backends.class)
  void aSchemaChangeInsideATransactionIsRefusedAndRolledBack(Backends b) throws SQLException {
    String url = setUp(b, "intx");
    try (SqliteReplica r = open(b, url); Connection read = b.connect(url)) {
      LiveQuery items = r.liveQuery("items", Query.from("i", r.table("items")).orderBy(Query.asc(col("i.id"))));
      assertThatThrownBy(() -> r.transaction(tx -> {
        tx.execute("INSERT INTO items VALUES (9, 'n', 1)");
        tx.execute("/* migrate */ ALTER TABLE items ADD COLUMN x INTEGER");
      })).isInstanceOf(IllegalStateException.class).hasMessageContaining("schema change");
      assertThat(sql(read, "SELECT count(*) FROM items")).containsExactly(Row.of(3));
      assertThat(items.rows()).isEqualTo(sql(read, "SELECT * FROM items ORDER BY id"));
      assertThat(r.current(items)).isSameAs(items);
    }
  }

  @ParameterizedTest
  @EnumSource(Backends.class)
  void aFailingSchemaChangeChangesNothingAndCaptureGoesOn(Backends b) throws SQLException {
    String url = setUp(b, "failing");
    try (SqliteReplica r = open(b, url); Connection read = b.connect(url)) {
      LiveQuery items = r.liveQuery("items", Query.from("i", r.table("items")).orderBy(Query.asc(col("i.id"))));
      assertThatThrownBy(() -> r.execute("ALTER TABLE nosuch ADD COLUMN x INTEGER")).isInstanceOf(SQLException.class);
      assertThat(r.current(items)).isSameAs(items);
      r.execute("UPDATE items SET qty = 1");
      assertThat(items.status()).isEqualTo(Status.READY);
      assertThat(items.rows()).isEqualTo(sql(read, "SELECT * FROM items ORDER BY id"));
    }
  }

  @Test
  void anH2TruncateWhichFiresNoTriggersReloadsTheMirrors() throws SQLException {
    String url = setUp(Backends.H2, "truncate");
    try (SqliteReplica r = open(Backends.H2, url); Connection read = Backends.H2.connect(url)) {
      LiveQuery items = r.liveQuery("items", Query.from("i", r.table("items")));
      LiveQuery tags = r.liveQuery("tags", Query.from("t", r.table("tags")));
      r.execute("TRUNCATE TABLE items");
      assertThat(items.rows()).isEmpty();
      assertThat(r.current(items)).isSameAs(items);
      assertThat(tags.rows()).hasSize(2);
      r.execute("INSERT INTO items VALUES (7, 'g', 1)");
      assertThat(items.rows()).isEqualTo(sql(read, "SELECT * FROM items"));
    }
  }
}
