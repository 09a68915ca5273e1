package dev.rivulet.bench;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The benchmark driver's own copy of the {@code issues} (and {@code users}) tables: seeded, so a
 * seed always yields the same rows, and mutable in place as updates are applied, so a naive
 * recomputation over {@link #rows} is the reference a workload's output is checked against.
 *
 * <p>Rows: {@code id} is {@code 0..n-1} (the index into {@link #rows}); a third of the rows are
 * {@code 'open'}, the rest {@code 'closed'} or {@code 'review'}; {@code priority} is uniform in
 * {@code 0..99}; {@code created} is a distinct, increasing epoch-seconds number; {@code assignee}
 * is uniform among {@link #USERS} users whose ids are {@code 0..USERS-1}.
 */
final class Issues {
  static final Schema SCHEMA = Schema.parse(
      "id INT NOT NULL, status STRING, priority INT, title STRING, created INT, assignee INT");
  static final Schema USER_SCHEMA = Schema.parse("id INT NOT NULL, name STRING");
  static final int ID = 0;
  static final int STATUS = 1;
  static final int PRIORITY = 2;
  static final int CREATED = 4;
  static final int ASSIGNEE = 5;
  static final int USERS = 10_000;
  static final String OPEN = "open";
  private static final String[] OTHER_STATUS = {"closed", "review"};
  private static final String[] WORDS = {"crash", "login", "slow", "export", "layout", "timeout", "typo", "cache"};

  /** The current row of each issue, indexed by id. */
  final Row[] rows;

  private Issues(Row[] rows) {
    this.rows = rows;
  }

  /** {@code n} issues drawn from {@code seed}. */
  static Issues generate(int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    Row[] rows = new Row[n];
    for (int id = 0; id < n; id++) {
      String status = rnd.nextInt(3) == 0 ? OPEN : OTHER_STATUS[rnd.nextInt(OTHER_STATUS.length)];
      long created = 1_700_000_000L + 16L * id + rnd.nextInt(16);
      rows[id] = Row.of(id, status, rnd.nextInt(100), WORDS[rnd.nextInt(WORDS.length)] + " in module " + (id % 97),
          created, rnd.nextInt(USERS));
    }
    return new Issues(rows);
  }

  /** The {@link #USERS} user rows {@code (id, 'user-<id>')}. */
  static Row[] users() {
    Row[] users = new Row[USERS];
    for (int u = 0; u < USERS; u++) {
      users[u] = Row.of(u, userName(u));
    }
    return users;
  }

  static String userName(int id) {
    return "user-" + id;
  }

  /** An independent copy: updates applied to it do not show in this one. */
  Issues copy() {
    return new Issues(Arrays.copyOf(rows, rows.length));
  }

  int size() {
    return rows.length;
  }

  /** Replaces the row with {@code after}'s id by {@code after} and returns the row it replaced. */
  Row apply(Row after) {
    int id = id(after);
    Row before = rows[id];
    rows[id] = after;
    return before;
  }

  static int id(Row r) {
    return (int) r.getLong(ID);
  }

  static boolean isOpen(Row r) {
    return OPEN.equals(r.get(STATUS));
  }

  /** {@code row} with a priority in 0..99 other than its current one. */
  static Row withNewPriority(Row row, SplittableRandom rnd) {
    return row.with(PRIORITY, (row.getLong(PRIORITY) + 1 + rnd.nextInt(99)) % 100);
  }

  /** {@code row} with an assignee other than its current one. */
  static Row withNewAssignee(Row row, SplittableRandom rnd) {
    return row.with(ASSIGNEE, (row.getLong(ASSIGNEE) + 1 + rnd.nextInt(USERS - 1)) % USERS);
  }
}
