package dev.rivulet.replica;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A random SQL history over {@link ReplicaDialect}'s schema, as data (so that it can be replayed
 * and shrunk): autocommit statements and transactions with statements whose failure is tolerated
 * or not, savepoints rolled back or released, and rollbacks on purpose. Statements fail on the
 * UNIQUE title, the foreign key or a duplicate key now and then.
 */
final class SqlHistory {
  private SqlHistory() {}

  /** One statement and its parameters. */
  record Stmt(String sql, List<Object> params) {
    @Override
    public String toString() {
      return sql + (params.isEmpty() ? "" : " " + params);
    }
  }

  /** One step of a history. */
  sealed interface Step permits Auto, Tx {}

  /** A statement in its own transaction. */
  record Auto(Stmt stmt) implements Step {
    @Override
    public String toString() {
      return stmt.toString();
    }
  }

  /** A transaction of items, rolled back on purpose at its end when {@code fail}. */
  record Tx(List<Item> items, boolean fail) implements Step {
    @Override
    public String toString() {
      return "BEGIN; " + items + (fail ? " ROLLBACK" : " COMMIT");
    }
  }

  /** An item of a transaction. */
  sealed interface Item permits Plain, Savepoint {}

  /** A statement; when {@code tolerated}, its failure is caught and the transaction goes on. */
  record Plain(Stmt stmt, boolean tolerated) implements Item {
    @Override
    public String toString() {
      return (tolerated ? "try " : "") + stmt;
    }
  }

  /** Statements under a savepoint, rolled back at its end when {@code undo}. */
  record Savepoint(List<Stmt> stmts, boolean undo) implements Item {
    @Override
    public String toString() {
      return "SAVEPOINT " + stmts + (undo ? " ROLLBACK TO" : " RELEASE");
    }
  }

  static List<Step> generate(ReplicaDialect d, Random r, int steps) {
    List<Step> out = new ArrayList<>();
    for (int i = 0; i < steps; i++) {
      if (r.nextInt(4) != 0) {
        out.add(new Auto(statement(d, r)));
        continue;
      }
      boolean fail = r.nextInt(3) == 0;
      List<Item> items = new ArrayList<>();
      for (int k = 1 + r.nextInt(3); k > 0; k--) {
        if (r.nextInt(3) == 0) {
          items.add(new Savepoint(List.of(statement(d, r), statement(d, r)), r.nextBoolean()));
        } else {
          items.add(new Plain(statement(d, r), r.nextBoolean()));
        }
      }
      out.add(new Tx(List.copyOf(items), fail));
    }
    return out;
  }

  /** Runs {@code step}; a failure of the database (a constraint, a rollback on purpose) is expected and swallowed. */
  static void run(Step step, SqliteReplica replica) {
    try {
      if (step instanceof Auto a) {
        exec(replica, a.stmt());
      } else if (step instanceof Tx t) {
        replica.transaction(tx -> {
          for (Item item : t.items()) {
            item(tx, item);
          }
          if (t.fail()) {
            throw new SQLException("rolled back on purpose");
          }
        });
      }
    } catch (SQLException expected) {
      // nothing of it may be published
    }
  }

  private static void item(SqliteReplica tx, Item item) throws SQLException {
    if (item instanceof Savepoint s) {
      try {
        tx.savepoint(sp -> {
          for (Stmt st : s.stmts()) {
            exec(sp, st);
          }
          if (s.undo()) {
            throw new SQLException("savepoint rolled back on purpose");
          }
        });
      } catch (SQLException undone) {
        // the savepoint's work is undone; the transaction goes on
      }
    } else if (item instanceof Plain p) {
      try {
        exec(tx, p.stmt());
      } catch (SQLException failed) {
        if (!p.tolerated()) {
          throw failed; // rolls the transaction back
        }
      }
    }
  }

  private static void exec(SqliteReplica r, Stmt s) throws SQLException {
    r.execute(s.sql(), s.params().toArray());
  }

  private static Stmt stmt(String sql, Object... params) {
    return new Stmt(sql, Arrays.asList(params));
  }

  private static <T> T orNull(Random r, int oneIn, T value) {
    return r.nextInt(oneIn) == 0 ? null : value;
  }

  /** One random statement over the three tables. */
  static Stmt statement(ReplicaDialect d, Random r) {
    int id = 1 + r.nextInt(12);
    return switch (r.nextInt(15)) {
      case 0 -> stmt("INSERT INTO issues VALUES (?, ?, ?, ?, ?)", id, orNull(r, 5, r.nextInt(3)),
          r.nextBoolean() ? "open" : "closed", orNull(r, 6, r.nextInt(10)), orNull(r, 5, "t" + r.nextInt(6)));
      case 1 -> stmt("UPDATE issues SET priority = priority + 1 WHERE project = ?", r.nextInt(3));
      case 2 -> stmt("UPDATE issues SET title = 't' || (id % 3) WHERE id > ?", r.nextInt(12)); // may clash
      case 3 -> stmt("DELETE FROM issues WHERE priority < ?", r.nextInt(4)); // cascades to comments
      case 4 -> stmt(d.upsert, id, r.nextInt(10));
      case 5 -> stmt("INSERT INTO comments VALUES (?, ?, ?)", 100 + r.nextInt(30), orNull(r, 6, id),
          orNull(r, 5, "c" + r.nextInt(6))); // the foreign key may fail
      case 6 -> stmt("UPDATE issues SET id = id + 20 WHERE id = ?", id); // fails when comments reference it
      case 7 -> stmt("UPDATE issues SET priority = NULL WHERE id = ?", id);
      case 8 -> stmt("UPDATE comments SET issue = ? WHERE id = ?", id, 100 + r.nextInt(30));
      case 9 -> stmt("UPDATE comments SET body = ? WHERE issue = ?", orNull(r, 4, "c" + r.nextInt(6)), id);
      case 10 -> stmt("DELETE FROM comments WHERE id % 4 = ?", r.nextInt(4));
      case 11 -> stmt("INSERT INTO projects VALUES (?, ?)", r.nextInt(5), orNull(r, 4, "p" + r.nextInt(3)));
      case 12 -> stmt("UPDATE projects SET name = ? WHERE id = ?", orNull(r, 4, "p" + r.nextInt(3)), r.nextInt(5));
      case 13 -> stmt("DELETE FROM projects WHERE id = ?", r.nextInt(5));
      default -> stmt("UPDATE issues SET project = ?, status = ? WHERE id = ?", orNull(r, 5, r.nextInt(4)),
          r.nextBoolean() ? "open" : "closed", id);
    };
  }
}
