package dev.rivulet.replica.cli;

import dev.rivulet.replica.SqliteReplica;
import java.sql.SQLException;
import java.util.Random;

/**
 * The demo's writes: transactions of one to four statements (new issues, priority changes,
 * closing and reopening, re-assignments, comments, deletions), each committed through the replica.
 * The number of issues stays within a tenth (at least {@value #MIN_BAND}) of what it was at the
 * start: issues are inserted and deleted at random, as often as each other, except that at the
 * band's edge the one that would leave it is turned into the other (left alone, their counts make
 * a random walk, which a long or fast run takes down to a handful of issues). Owned by the thread
 * that runs it.
 */
final class WriteGenerator {
  static final int MIN_BAND = 10;
  private final SqliteReplica replica;
  private final Random rnd;
  private final int users;
  private final int projects;
  private final long least;
  private final long most;
  private long maxIssue;
  private long issues;

  /**
   * @param maxIssue the greatest issue id so far (new issues take the next ones)
   * @param issues the number of issues in the database now: the middle of the band it is kept in
   */
  WriteGenerator(SqliteReplica replica, Random rnd, long maxIssue, long issues) {
    this.replica = replica;
    this.rnd = rnd;
    this.users = TrackerDb.USERS.length;
    this.projects = TrackerDb.PROJECTS.length;
    this.maxIssue = maxIssue;
    this.issues = issues;
    long band = Math.max(MIN_BAND, issues / 10);
    this.least = Math.max(0, issues - band);
    this.most = issues + band;
  }

  /** The number of issues in the database, as this generator's writes left it. */
  long issues() {
    return issues;
  }

  /** Runs and commits one transaction (its changes are published to the live queries when this returns). */
  void commitOne() throws SQLException {
    int statements = 1 + rnd.nextInt(4);
    replica.transaction(tx -> {
      for (int k = 0; k < statements; k++) {
        statement(tx);
      }
    });
  }

  private void statement(SqliteReplica tx) throws SQLException {
    // an existing issue, each as likely as the others: the n-th by id. (The first at or after a
    // random id would mostly be the oldest, once the deletions have emptied the low ids.)
    String some = "(SELECT id FROM issues ORDER BY id LIMIT 1 OFFSET ?)";
    int nth = rnd.nextInt((int) Math.min(Integer.MAX_VALUE, Math.max(1, issues)));
    int kind = rnd.nextInt(20);
    if (kind == 0 && issues >= most || kind == 19 && issues <= least) {
      kind = 19 - kind; // at the band's edge: back into it
    }
    switch (kind) {
      case 0 -> {
        maxIssue++;
        issues += tx.execute("INSERT INTO issues VALUES (?, ?, ?, 'open', ?, ?)", maxIssue, 1 + rnd.nextInt(projects),
            TrackerDb.title(rnd), rnd.nextInt(100), rnd.nextInt(4) == 0 ? null : 1 + rnd.nextInt(users));
      }
      case 1, 2, 3, 4, 5 -> tx.execute("UPDATE issues SET priority = ? WHERE id = " + some, rnd.nextInt(100), nth);
      case 6, 7 -> tx.execute("UPDATE issues SET status = CASE status WHEN 'open' THEN 'closed' ELSE 'open' END"
          + " WHERE id = " + some, nth);
      case 8, 9, 10 -> tx.execute("UPDATE issues SET assignee = ? WHERE id = " + some,
          rnd.nextInt(6) == 0 ? null : 1 + rnd.nextInt(users), nth);
      case 11, 12, 13, 14 -> tx.execute("INSERT INTO comments (issue, author, body) SELECT id, ?, ? FROM issues WHERE id = " + some,
          1 + rnd.nextInt(users), "comment " + rnd.nextInt(1000), nth);
      case 15, 16, 17, 18 -> tx.execute("DELETE FROM comments WHERE id = (SELECT min(id) FROM comments WHERE issue = " + some + ")", nth);
      default -> issues -= tx.execute("DELETE FROM issues WHERE id = " + some, nth); // cascades to its comments
    }
  }
}
