package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A history of transactions on the collections of an {@link OracleWorld}, and the model of their
 * visible rows that the oracle evaluates queries over.
 *
 * <p>Steps: a sync transaction (optionally truncating one collection first, then writes and
 * deletes on that collection or, as one transaction over several, on any);
 * applying an optimistic transaction (writes to any collections); confirming or rolling back a
 * pending one. Every step is one transaction for the live queries. Writes are upserts or deletes by
 * key; when replayed through {@link Transaction} they become insert, update or delete according to
 * the visible rows (a delete of an absent key is dropped), so every sub-history a shrinker makes is
 * still valid. Settling a transaction that is not pending does nothing.
 *
 * <p>{@link Model} follows {@link SourceCollection}'s documented rule: the visible rows are the
 * synced rows overlaid by the pending transactions' writes in the order they were applied; sync
 * writes go underneath; confirming makes a transaction's writes synced rows; rolling back drops
 * them.
 */
final class OracleHistory {
  private OracleHistory() {}

  /** One write: the row for key {@code id} of table {@code table}, or null to delete it. */
  record Write(int table, long id, Row row) {
    @Override
    public String toString() {
      return row == null ? "delete t" + table + "[" + id + "]" : "t" + table + " " + row;
    }
  }

  sealed interface Step permits Sync, Apply, Settle {}

  /**
   * A committed sync transaction: {@code table} truncated first when {@code truncate}, then the
   * writes, which may name other tables too (one transaction over several collections).
   */
  record Sync(int table, boolean truncate, List<Write> writes) implements Step {
    Sync {
      writes = List.copyOf(writes);
    }

    /** Whether a write names a table other than {@code table}. */
    boolean spansTables() {
      for (Write w : writes) {
        if (w.table() != table) {
          return true;
        }
      }
      return false;
    }

    @Override
    public String toString() {
      return "sync" + (spansTables() ? "" : " t" + table) + (truncate ? " truncate t" + table + "," : "") + " " + writes;
    }
  }

  /** Optimistic transaction {@code tx} applied. */
  record Apply(int tx, List<Write> writes) implements Step {
    Apply {
      writes = List.copyOf(writes);
    }

    @Override
    public String toString() {
      return "apply tx" + tx + " " + writes;
    }
  }

  /** Pending transaction {@code tx} confirmed or rolled back. */
  record Settle(int tx, boolean confirm) implements Step {
    @Override
    public String toString() {
      return (confirm ? "confirm tx" : "roll back tx") + tx;
    }
  }

  /** The visible rows of every table, per the documented overlay rule. */
  static final class Model {
    private final List<Map<Long, Row>> synced = new ArrayList<>();
    private final Map<Integer, List<Write>> pending = new LinkedHashMap<>();

    Model(int tables) {
      for (int i = 0; i < tables; i++) {
        synced.add(new TreeMap<>());
      }
    }

    Map<Long, Row> visible(int table) {
      Map<Long, Row> out = new TreeMap<>(synced.get(table));
      for (List<Write> ws : pending.values()) {
        overlay(out, ws, table);
      }
      return out;
    }

    boolean pending(int tx) {
      return pending.containsKey(tx);
    }

    List<Integer> pendingIds() {
      return new ArrayList<>(pending.keySet());
    }

    void apply(Step step) {
      if (step instanceof Sync s) {
        if (s.truncate()) {
          synced.get(s.table()).clear();
        }
        for (int t = 0; t < synced.size(); t++) {
          overlay(synced.get(t), s.writes(), t);
        }
      } else if (step instanceof Apply a) {
        pending.put(a.tx(), effective(a.writes()));
      } else {
        Settle s = (Settle) step;
        List<Write> ws = pending.remove(s.tx());
        if (ws != null && s.confirm()) {
          for (int t = 0; t < synced.size(); t++) {
            overlay(synced.get(t), ws, t);
          }
        }
      }
    }

    /**
     * The writes of an optimistic transaction as they take effect: a delete of a key that is not
     * visible (counting the transaction's own earlier writes) is dropped.
     */
    List<Write> effective(List<Write> writes) {
      List<Write> out = new ArrayList<>();
      Map<String, Row> own = new LinkedHashMap<>();
      for (Write w : writes) {
        String k = w.table() + ":" + w.id();
        Row current = own.containsKey(k) ? own.get(k) : visible(w.table()).get(w.id());
        if (w.row() == null && current == null) {
          continue;
        }
        own.put(k, w.row());
        out.add(w);
      }
      return out;
    }

    private static void overlay(Map<Long, Row> rows, List<Write> ws, int table) {
      for (Write w : ws) {
        if (w.table() != table) {
          continue;
        }
        if (w.row() == null) {
          rows.remove(w.id());
        } else {
          rows.put(w.id(), w.row());
        }
      }
    }
  }

  /**
   * A random history of {@code n} steps: an initial load of every table, then sync batches
   * (sometimes truncating), optimistic transactions (up to three pending at once) and their
   * confirmations and rollbacks; pending transactions are settled at the end.
   */
  static List<Step> random(OracleWorld w, Random r, int n) {
    List<Step> steps = new ArrayList<>();
    Model m = new Model(w.tables.size());
    int nextTx = 0;
    for (int t = 0; t < w.tables.size(); t++) {
      List<Write> ws = new ArrayList<>();
      for (int i = 2 + r.nextInt(w.maxId * 2 / 3); i > 0; i--) {
        ws.add(upsert(w, t, r));
      }
      add(steps, m, new Sync(t, false, ws));
    }
    while (steps.size() < n) {
      int k = r.nextInt(20);
      List<Integer> pending = m.pendingIds();
      if (k < 6 && !pending.isEmpty()) {
        add(steps, m, new Settle(pending.get(r.nextInt(pending.size())), r.nextInt(10) < 6));
      } else if (k < 12 && pending.size() < 3) {
        List<Write> ws = new ArrayList<>();
        for (int i = 1 + r.nextInt(4); i > 0; i--) {
          ws.add(write(w, m, r.nextInt(w.tables.size()), r));
        }
        add(steps, m, new Apply(nextTx++, ws));
      } else {
        int t = r.nextInt(w.tables.size());
        boolean span = w.tables.size() > 1 && r.nextInt(4) == 0; // one transaction over several tables
        List<Write> ws = new ArrayList<>();
        for (int i = 1 + r.nextInt(w.maxId > OracleWorld.MAX_ID ? 8 : 4); i > 0; i--) {
          ws.add(write(w, m, span ? r.nextInt(w.tables.size()) : t, r));
        }
        add(steps, m, new Sync(t, r.nextInt(25) == 0, ws));
      }
    }
    for (int tx : m.pendingIds()) {
      add(steps, m, new Settle(tx, r.nextBoolean()));
    }
    return steps;
  }

  private static void add(List<Step> steps, Model m, Step s) {
    steps.add(s);
    m.apply(s);
  }

  private static Write upsert(OracleWorld w, int t, Random r) {
    long id = 1 + r.nextInt(w.maxId);
    return new Write(t, id, w.row(t, id, r));
  }

  /** An upsert of a random key, or a delete of a visible one. */
  private static Write write(OracleWorld w, Model m, int t, Random r) {
    List<Long> present = new ArrayList<>(m.visible(t).keySet());
    if (!present.isEmpty() && r.nextInt(10) < 3) {
      return new Write(t, present.get(r.nextInt(present.size())), null);
    }
    if (!present.isEmpty() && r.nextInt(10) < 5) {
      long id = present.get(r.nextInt(present.size()));
      return new Write(t, id, w.row(t, id, r));
    }
    return upsert(w, t, r);
  }

  static String describe(List<Step> steps) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < steps.size(); i++) {
      sb.append("    step ").append(i).append(": ").append(steps.get(i)).append('\n');
    }
    return sb.toString();
  }
}
