package dev.rivulet.engine;

import dev.rivulet.engine.state.KeyIndex;
import dev.rivulet.engine.state.KeyWeights;
import dev.rivulet.engine.state.LongBatch;

/**
 * The bulk path of a left join in left rows mode ({@link Stream#leftJoinLeftRows}) on one key
 * column for a hydration-sized batch of left rows {@code dL}: it matches every row, writes the
 * output over {@code dL} itself and adds the rows to the join's left index.
 *
 * <p>Law (the join's {@code dL x R1} plus the null-extended part, each pair being the left row
 * itself): a left row {@code r} of weight {@code w} under key {@code k} is emitted with weight
 * {@code w * P(k)}, where {@code P(k)} is the weight of {@code k}'s right rows that pass the join's
 * right-side condition ({@link KeyWeights#passing}), and not at all when that is 0; while {@code k}
 * is null or has no right rows it is emitted with {@code w} when the condition accepts all-null
 * right columns, else not at all. Every row with a non-null key goes into the left index with
 * {@code w}; a row's key is read once. The output keeps {@code dL}'s order.
 *
 * <p>Not thread-safe: owned by its join (the graph's run loop).
 */
final class LeftRowsHydration {
  /**
   * The least batch of left rows its join hands to {@link #emitInPlace}: far below {@link
   * KeyIndex#BULK_AT}, as the path builds no bags (a lazy index packs a batch of {@link
   * KeyIndex#PACK_AT} anyway), so that a hydration of a thousand rows runs the code one of a
   * hundred thousand will.
   */
  static final int AT = 512;
  // Per-row loops run in chunks, one call each: a fresh JVM compiles a chunk after about a hundred
  // calls, where one long loop would run interpreted until on-stack replacement.
  private static final int CHUNK = 16;
  private static final int TABLE_SPREAD = 4;
  private final String name;
  private final int keyColumn;
  private final KeyWeights rightWeights;
  private final boolean unmatchedPass;
  private final KeyIndex<Row> left;
  /** Batches emitted in place, for tests. */
  long runs;
  /** Of those, the batches of unit weights whose output kept unit weights, for tests. */
  long unitRuns;
  /** Batches of unit weights whose keys were looked up in a table ({@link #tabulate}), for tests. */
  long tables;
  private long[] table; // during a unit pass: passing weight by Long key - tableBase (ABSENT: no right rows), or null
  private long tableBase;
  private int heavy; // where a unit-weight pass stopped: the first row whose output weighs more than one, or -1

  /**
   * @param name the join's name, for errors
   * @param keyColumn the left rows' key column
   * @param rightWeights per right key, its total and passing weight (the join keeps them current)
   * @param unmatchedPass whether the condition accepts all-null right columns
   * @param left the join's left index
   */
  LeftRowsHydration(String name, int keyColumn, KeyWeights rightWeights, boolean unmatchedPass, KeyIndex<Row> left) {
    this.name = name;
    this.keyColumn = keyColumn;
    this.rightWeights = rightWeights;
    this.unmatchedPass = unmatchedPass;
    this.left = left;
  }

  /**
   * Rewrites {@code dl} to its output entries (see the class comment), over the entries already
   * read, and adds its rows to the left index: integer keys are noted and go in after the pass
   * ({@link KeyIndex#addAll(LongBatch)}), a key of another kind at once. A batch of unit weights
   * (a hydration's, {@link Delta#unitWeights}) is read as it is and stays one while every entry
   * it emits weighs one, so no weights are allocated and the next operator reads none; from the
   * first entry that weighs more, the weights are materialized and the rest of the pass reads
   * and writes them. Such a pass reads the right keys' passing weights from a table when they lie
   * in a dense range ({@link #tabulate}).
   */
  void emitInPlace(Delta dl) {
    runs++;
    LongBatch bulk = new LongBatch(dl.size);
    int kept = 0;
    int from = 0;
    if (dl.unitWeights()) {
      heavy = -1;
      tabulate(dl.size);
      while (from < dl.size && heavy < 0) {
        int to = Math.min(dl.size, from + CHUNK);
        kept = keepUnit(dl.rows, bulk, from, to, kept);
        from = to;
      }
      table = null;
      if (heavy < 0) {
        unitRuns++;
      } else {
        from = heavy; // row heavy is not read yet
        dl.materialize(); // the entries kept so far and those not read yet all weigh one
      }
    }
    for (; from < dl.size; from += CHUNK) {
      kept = keepLeftRows(dl, bulk, from, Math.min(dl.size, from + CHUNK), kept);
    }
    dl.size = kept;
    addAll(left, bulk, keyColumn, name);
  }

  /**
   * The pass of {@link #emitInPlace} over {@code rows[from, to)} of unit weights; returns the
   * entries kept so far. Stops before the first row whose output would weigh neither 0 nor 1,
   * noting it in {@link #heavy}. A null key (most rows of a NULL-heavy join) costs one read.
   */
  private int keepUnit(Row[] rows, LongBatch bulk, int from, int to, int kept) {
    int column = keyColumn; // fields in locals: the first chunks of a fresh JVM run interpreted
    boolean unmatched = unmatchedPass;
    long[] t = table;
    long base = tableBase;
    for (int i = from; i < to; i++) {
      Row row = rows[i];
      Object key = row.values[column];
      if (key == null) {
        if (unmatched) {
          rows[kept++] = row;
        }
        continue;
      }
      boolean isLong = key instanceof Long;
      long k = isLong ? (Long) key : 0;
      long pass;
      if (isLong && t != null) { // the table answers every Long key: outside it, none has right rows
        long d = k - base;
        pass = k >= base && d >= 0 && d < t.length ? t[(int) d] : KeyWeights.ABSENT;
      } else {
        pass = rightWeights.passing(key);
      }
      if (pass == KeyWeights.ABSENT ? unmatched : pass == 1) {
        rows[kept++] = row;
      } else if (pass != KeyWeights.ABSENT && pass != 0) {
        heavy = i;
        return kept;
      }
      if (isLong) {
        bulk.add(k, row);
      } else {
        JoinOperator.addChecked(left, key, row, 1, name); // a key of another kind goes in at once
      }
    }
    return kept;
  }

  /**
   * Makes {@link #table} of the right keys' passing weights when their {@code Long} keys lie in a
   * range no wider than {@code rows} and than {@value #TABLE_SPREAD} times their number (ids, as
   * a join on a foreign key meets them), so that a unit pass looks a key up without a call.
   */
  private void tabulate(int rows) {
    table = null;
    long[] range = rightWeights.longKeyRange();
    if (range == null) {
      return;
    }
    long width = range[1] - range[0]; // unsigned: the greatest key is not below the least
    long limit = Math.min(rows, (long) TABLE_SPREAD * rightWeights.keys());
    if (Long.compareUnsigned(width, limit) >= 0) {
      return;
    }
    long[] t = new long[(int) width + 1];
    if (rightWeights.passingInto(range[0], t)) {
      table = t;
      tableBase = range[0];
      tables++;
    }
  }

  /** The pass of {@link #emitInPlace} over {@code dl[from, to)} with its weights; returns the entries kept so far. */
  private int keepLeftRows(Delta dl, LongBatch bulk, int from, int to, int kept) {
    for (int i = from; i < to; i++) {
      Row row = dl.rows[i];
      long w = dl.weights[i];
      Object key = row.canonicalAt(keyColumn);
      long pass = key == null ? KeyWeights.ABSENT : rightWeights.passing(key);
      long out = pass != KeyWeights.ABSENT ? w * pass : unmatchedPass ? w : 0;
      if (out != 0) {
        dl.rows[kept] = row;
        dl.weights[kept++] = out;
      }
      if (key instanceof Long) {
        bulk.add(key, row, w);
      } else if (key != null) {
        JoinOperator.addChecked(left, key, row, w, name);
      }
    }
    return kept;
  }

  /**
   * Adds the entries noted in {@code bulk} to {@code index} (see {@link KeyIndex#addAll(LongBatch)}),
   * whose rows are keyed by their column {@code keyColumn}; a weight turned negative is an {@link
   * InvariantViolation} naming the join {@code name}.
   */
  static void addAll(KeyIndex<Row> index, LongBatch bulk, int keyColumn, String name) {
    int bad = index.addAll(bulk);
    if (bad >= 0) {
      Row row = (Row) bulk.value(bad);
      throw new InvariantViolation(name + ": multiplicity of " + row + " would become "
          + index.get(row.canonicalAt(keyColumn)).weightOf(row));
    }
  }
}
