package dev.rivulet.bench;

import dev.rivulet.engine.Row;

/**
 * A precomputed, endlessly repeatable cycle of single-row updates for the JMH benchmarks, so the
 * measured method allocates nothing of its own. The first half is {@code n} updates drawn from a
 * stream over a copy of the data; the second half undoes them in reverse order, so after one full
 * cycle every row is back where it started and the cycle can run again.
 */
final class UpdateRing {
  final Row[] before;
  final Row[] after;
  private int next;

  private UpdateRing(Row[] before, Row[] after) {
    this.before = before;
    this.after = after;
  }

  /**
   * Draws {@code n} updates from {@code stream}, which must read and update {@code data} (a copy
   * the caller no longer needs: it is mutated and restored).
   */
  static UpdateRing of(Issues data, UpdateStream stream, int n) {
    Row[] before = new Row[2 * n];
    Row[] after = new Row[2 * n];
    for (int i = 0; i < n; i++) {
      Row a = stream.next();
      Row b = data.apply(a);
      stream.applied(b, a);
      before[i] = b;
      after[i] = a;
      before[2 * n - 1 - i] = a;
      after[2 * n - 1 - i] = b;
    }
    for (int i = n; i < 2 * n; i++) {
      stream.applied(data.apply(after[i]), after[i]);
    }
    return new UpdateRing(before, after);
  }

  /** Index of the next update in {@link #before} / {@link #after}. */
  int advance() {
    int i = next;
    next = i + 1 == before.length ? 0 : i + 1;
    return i;
  }
}
