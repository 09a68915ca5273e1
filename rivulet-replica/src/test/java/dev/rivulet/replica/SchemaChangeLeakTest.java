package dev.rivulet.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.query.Rivulet;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Repeated schema changes do not grow the Rivulet database: the mirrors a schema change closes
 * (an altered table's old mirror, a dropped table's) leave the database's collections, whose count
 * ({@code Rivulet.collectionCount}, package-private in the query module, read reflectively) is back
 * where it started after every round; the mirrors still follow the writes.
 */
class SchemaChangeLeakTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(Backends.class)
  void repeatedSchemaChangesDoNotGrowTheDatabase(Backends b) throws Exception {
    String url = b.url(dir, "leak");
    b.run(url, "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);INSERT INTO items VALUES (1, 'a')");
    try (SqliteReplica r = b.open(url)) {
      int start = collectionCount(r.rivulet());
      for (int i = 0; i < 12; i++) {
        r.execute("ALTER TABLE items ADD COLUMN c" + i + " INTEGER"); // a new mirror replaces the old one
        r.execute(b.ddl("CREATE TABLE scratch (id INTEGER PRIMARY KEY, body TEXT)"));
        r.execute("INSERT INTO scratch VALUES (?, 'x')", i);
        r.execute("DROP TABLE scratch");
        assertThat(collectionCount(r.rivulet())).as("after round %d", i).isEqualTo(start);
      }
      r.execute("UPDATE items SET c11 = 7 WHERE id = 1");
      Object[] values = new Object[14];
      values[0] = 1L;
      values[1] = "a";
      values[13] = 7L;
      assertThat(r.table("items").rows()).containsExactly(Row.of(values));
    }
  }

  private static int collectionCount(Rivulet db) throws ReflectiveOperationException {
    Method m = Rivulet.class.getDeclaredMethod("collectionCount");
    m.setAccessible(true);
    return (int) m.invoke(db);
  }
}
