package dev.rivulet.replica.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.replica.SqliteReplica;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's writes keep the number of issues within its band however long they run (unbounded,
 * the inserts and deletes are a random walk that a fast machine's three-second run once took from
 * 300 issues down to about twenty, fewer open issues than the demo's top 20 shows), and they reach
 * issues across the table, not mostly the oldest.
 */
class WriteGeneratorTest {
  @Test
  void theIssueCountStaysWithinItsBandAndMatchesTheDatabase(@TempDir Path dir) throws SQLException {
    String url = "jdbc:sqlite:" + dir.resolve("tracker.db");
    int seeded = 50; // band: 40..60, which an unbounded walk of this many commits leaves almost surely
    Random rnd = new Random(7);
    try (Connection keep = DriverManager.getConnection(url)) {
      try (Statement st = keep.createStatement()) {
        st.execute("PRAGMA foreign_keys = ON");
      }
      TrackerDb.createAndSeed(keep, seeded, rnd, false);
      try (SqliteReplica replica = SqliteReplica.open(url)) {
        WriteGenerator writes = new WriteGenerator(replica, rnd, seeded, seeded);
        long least = seeded;
        long most = seeded;
        for (int i = 1; i <= 6_000; i++) {
          writes.commitOne();
          least = Math.min(least, writes.issues());
          most = Math.max(most, writes.issues());
          if (i % 500 == 0) {
            assertThat(writes.issues()).as("after %d commits", i).isEqualTo(count(keep));
          }
        }
        assertThat(least).isGreaterThanOrEqualTo(seeded - WriteGenerator.MIN_BAND);
        assertThat(most).isLessThanOrEqualTo(seeded + WriteGenerator.MIN_BAND);
        assertThat(most - least).as("the count still moves within the band").isGreaterThan(WriteGenerator.MIN_BAND);
      }
    }
  }

  @Test
  void changesReachIssuesAcrossTheTableNotJustTheOldest(@TempDir Path dir) throws SQLException {
    String url = "jdbc:sqlite:" + dir.resolve("tracker.db");
    int seeded = 50;
    Random rnd = new Random(3);
    try (Connection keep = DriverManager.getConnection(url)) {
      TrackerDb.createAndSeed(keep, seeded, rnd, false);
      try (SqliteReplica replica = SqliteReplica.open(url)) {
        WriteGenerator writes = new WriteGenerator(replica, rnd, seeded, seeded);
        for (int i = 0; i < 4_000; i++) {
          writes.commitOne();
        }
      }
      // Issues come in open and live about a thousand statements, in which a tenth of the
      // statements toggles a random issue's status: about two toggles each. Had the toggles gone
      // to the oldest issue mostly, nearly every newer one would still be open.
      long newer = count(keep, "SELECT count(*) FROM issues WHERE id > " + seeded);
      long closed = count(keep, "SELECT count(*) FROM issues WHERE id > " + seeded + " AND status = 'closed'");
      assertThat(newer).isGreaterThan(seeded / 2);
      assertThat((double) closed / newer).as("%d of %d newer issues closed", closed, newer).isBetween(0.25, 0.75);
    }
  }

  private static long count(Connection c) throws SQLException {
    return count(c, "SELECT count(*) FROM issues");
  }

  private static long count(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
