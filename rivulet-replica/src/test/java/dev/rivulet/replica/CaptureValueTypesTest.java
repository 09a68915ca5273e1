package dev.rivulet.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every SQLite storage class reaches the mirror unchanged through each capture path (insert,
 * update that kept its key, update that changed it, delete), with a text key so that the key is
 * read by type too: NULL, integer extremes, reals that need all their digits, text with non-ASCII
 * characters, quotes, separators and an embedded NUL, text that looks like a number or NULL, and
 * blobs (empty, and holding quote and separator bytes).
 */
class CaptureValueTypesTest {
  private static final Object[] VALUES = {
    null, Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 0.1 + 0.2, 1e308, -2.5, Double.MIN_VALUE,
    Double.POSITIVE_INFINITY, "it's, \"quoted\"; a|b\\n\t,NULL", "\u017c\u00f3\u0142w \u65e5\u672c \ud83d\ude00",
    "a\u0000b", "", "NULL", "123", "1.5", "X'00'", new byte[0], new byte[] {0, ',', '\'', (byte) 0xff, '|'},
  };

  @Test
  void everyStorageClassRoundTripsThroughEveryCapturePath() throws SQLException {
    String url = "jdbc:sqlite:file:capture-value-types?mode=memory&cache=shared";
    try (Connection keep = DriverManager.getConnection(url)) {
      SqlRows.exec(keep, "CREATE TABLE vals (k TEXT PRIMARY KEY, v, n INTEGER) WITHOUT ROWID");
      try (SqliteReplica replica = SqliteReplica.open(url)) {
        List<Row> expected = new ArrayList<>();
        for (int i = 0; i < VALUES.length; i++) {
          replica.execute("INSERT INTO vals VALUES (?, ?, ?)", "k'," + i + "\u00e9", VALUES[i], i);
          expected.add(Row.of("k'," + i + "\u00e9", VALUES[i], (long) i));
        }
        check(replica, keep, expected, "insert");

        replica.execute("UPDATE vals SET n = n + 100"); // every key kept
        expected.replaceAll(r -> Row.of(r.get(0), r.get(1), (Long) r.get(2) + 100));
        check(replica, keep, expected, "update that kept the key");

        replica.execute("UPDATE vals SET k = k || '+', v = v"); // every key changed
        expected.replaceAll(r -> Row.of(r.get(0) + "+", r.get(1), r.get(2)));
        check(replica, keep, expected, "update that changed the key");

        replica.transaction(tx -> {
          tx.execute("UPDATE vals SET v = ? WHERE n % 2 = 0", "a\u0000'b'"); // kept, in one transaction
          tx.execute("DELETE FROM vals WHERE n % 3 = 0");
        });
        expected.replaceAll(r -> (Long) r.get(2) % 2 == 0 ? Row.of(r.get(0), "a\u0000'b'", r.get(2)) : r);
        expected.removeIf(r -> (Long) r.get(2) % 3 == 0);
        check(replica, keep, expected, "update and delete");
      }
    }
  }

  @Test
  void aColumnRepeatingOrAlternatingItsTextReachesTheMirrorAsWritten() throws SQLException {
    String url = "jdbc:sqlite:file:capture-repeated-text?mode=memory&cache=shared";
    try (Connection keep = DriverManager.getConnection(url)) {
      SqlRows.exec(keep,
          "CREATE TABLE items (id INTEGER PRIMARY KEY, status TEXT, v)",
          "INSERT INTO items VALUES (1, 'open', 'x'), (2, 'open', 'x')");
      try (SqliteReplica replica = SqliteReplica.open(url)) {
        Object[] statuses = {"open", "open", "opened", "open", "op", "", "open", "op\u00e9n", "open\u0000", "open", null,
            "open", "open", 4L};
        for (int i = 0; i < statuses.length; i++) {
          Object s = statuses[i];
          replica.execute("UPDATE items SET status = ?, v = ? WHERE id = ?", s, s, 1 + i % 2);
          replica.execute("INSERT INTO items VALUES (?, ?, ?)", 100 + i, s, "x");
          replica.execute("UPDATE items SET id = id + 1000 WHERE id = ?", 100 + i); // a key change passes the old key too
          assertThat(SqlRows.sorted(replica.table("items").rows())).as("after %s", s)
              .isEqualTo(SqlRows.sorted(SqlRows.read(keep, "SELECT * FROM items")));
        }
      }
    }
  }

  private static void check(SqliteReplica replica, Connection keep, List<Row> expected, String step)
      throws SQLException {
    List<Row> mirror = SqlRows.sorted(replica.table("vals").rows());
    assertThat(mirror).as(step).isEqualTo(SqlRows.sorted(expected))
        .isEqualTo(SqlRows.sorted(SqlRows.read(keep, "SELECT * FROM vals")));
    for (Row r : mirror) {
      Object v = r.get(1);
      Object want = expected.stream().filter(e -> e.get(0).equals(r.get(0))).findFirst().orElseThrow().get(1);
      if (want instanceof byte[] b) {
        assertThat(v).as(step + " " + r.get(0)).isInstanceOf(byte[].class);
        assertThat(Arrays.equals((byte[]) v, b)).as(step + " " + r.get(0)).isTrue();
      } else {
        assertThat(v).as(step + " " + r.get(0)).isEqualTo(want);
      }
    }
  }
}
