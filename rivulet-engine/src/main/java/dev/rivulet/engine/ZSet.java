package dev.rivulet.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * An immutable weighted multiset of rows (a Z-set): each entry is a row with a signed weight. A
 * positive weight inserts that many copies, a negative weight retracts them. A batch sent to a
 * graph input is one transaction; an output's delta is the consolidated change of one run.
 *
 * <p>Entries may carry a <em>position</em>: the output of an order/top-K operator says where each
 * row sits in its window, so a consumer can splice a list without re-sorting. On such a delta,
 * retractions come first, in descending old position, then insertions in ascending new position;
 * applying them in that order with {@link #spliceInto} turns the old window into the new one. An
 * entry without a position has {@code position == -1}.
 */
public final class ZSet implements Iterable<ZSet.Entry> {
  private static final ZSet EMPTY = new ZSet(new Row[0], new long[0], null);

  /** One (row, weight, position) entry. */
  public record Entry(Row row, long weight, int position) {}

  private final Row[] rows;
  private final long[] weights;
  private final int[] positions;

  private ZSet(Row[] rows, long[] weights, int[] positions) {
    this.rows = rows;
    this.weights = weights;
    this.positions = positions;
  }

  static ZSet fromArrays(Row[] rows, long[] weights, int[] positions) {
    return rows.length == 0 ? EMPTY : new ZSet(rows, weights, positions);
  }

  public static ZSet empty() {
    return EMPTY;
  }

  /** Each row once, weight +1. */
  public static ZSet of(Row... rows) {
    long[] w = new long[rows.length];
    Arrays.fill(w, 1);
    return fromArrays(rows.clone(), w, null);
  }

  /** Each row once, weight +1. */
  public static ZSet of(List<Row> rows) {
    return of(rows.toArray(new Row[0]));
  }

  /** The entries of {@code counts}, in its iteration order. */
  public static ZSet ofMap(Map<Row, Long> counts) {
    Builder b = builder();
    counts.forEach(b::add);
    return b.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public int size() {
    return rows.length;
  }

  public boolean isEmpty() {
    return rows.length == 0;
  }

  public Row row(int i) {
    return rows[i];
  }

  public long weight(int i) {
    return weights[i];
  }

  /** The entry's window position, or -1. */
  public int position(int i) {
    return positions == null ? -1 : positions[i];
  }

  public boolean hasPositions() {
    return positions != null;
  }

  public Entry entry(int i) {
    return new Entry(rows[i], weights[i], position(i));
  }

  /** Equal rows summed, zero weights dropped, first-seen order kept, positions dropped. */
  public ZSet consolidate() {
    Delta d = new Delta(Math.max(4, rows.length));
    for (int i = 0; i < rows.length; i++) {
      d.add(rows[i], weights[i]);
    }
    return d.consolidate().toZSet();
  }

  /** The consolidated contents as row -> weight, in first-seen order. */
  public Map<Row, Long> toMap() {
    Map<Row, Long> m = new LinkedHashMap<>();
    for (int i = 0; i < rows.length; i++) {
      m.merge(rows[i], weights[i], Long::sum);
    }
    m.values().removeIf(w -> w == 0);
    return m;
  }

  /** Every weight negated; positions kept. */
  public ZSet negate() {
    long[] w = new long[weights.length];
    for (int i = 0; i < w.length; i++) {
      w[i] = -weights[i];
    }
    return fromArrays(rows, w, positions);
  }

  /** This followed by {@code other}, unconsolidated, without positions. */
  public ZSet plus(ZSet other) {
    Row[] r = Arrays.copyOf(rows, rows.length + other.rows.length);
    System.arraycopy(other.rows, 0, r, rows.length, other.rows.length);
    long[] w = Arrays.copyOf(weights, weights.length + other.weights.length);
    System.arraycopy(other.weights, 0, w, weights.length, other.weights.length);
    return fromArrays(r, w, null);
  }

  /**
   * Applies a positioned delta to {@code window}, the list it was computed against, turning it
   * into the new window. A weight of magnitude w at position p covers positions p..p+w-1.
   *
   * @throws IllegalArgumentException when an entry has no position or does not match the list
   */
  public void spliceInto(List<Row> window) {
    splice(rows, weights, positions, rows.length, window);
  }

  /** {@link #spliceInto} over the first {@code n} entries of arrays; {@code positions} may be null. */
  static void splice(Row[] rows, long[] weights, int[] positions, int n, List<Row> window) {
    for (int i = 0; i < n; i++) {
      int p = positions == null ? -1 : positions[i];
      if (p < 0) {
        throw new IllegalArgumentException("entry " + rows[i] + " x" + weights[i] + " has no position");
      }
      long w = weights[i];
      for (long k = 0; k < Math.abs(w); k++) {
        if (w < 0) {
          if (p >= window.size() || !window.get(p).equals(rows[i])) {
            throw new IllegalArgumentException("retraction of " + rows[i] + " at " + p + " does not match "
                + (p < window.size() ? window.get(p) : "the end of a window of " + window.size()));
          }
          window.remove(p);
        } else {
          if (p + k > window.size()) {
            throw new IllegalArgumentException("insertion of " + rows[i] + " at " + p
                + " is past the end of a window of " + window.size());
          }
          window.add((int) (p + k), rows[i]);
        }
      }
    }
  }

  @Override
  public Iterator<Entry> iterator() {
    return new Iterator<>() {
      int i;

      @Override
      public boolean hasNext() {
        return i < rows.length;
      }

      @Override
      public Entry next() {
        if (i >= rows.length) {
          throw new NoSuchElementException();
        }
        return entry(i++);
      }
    };
  }

  public List<Entry> entries() {
    List<Entry> out = new ArrayList<>(rows.length);
    for (Entry e : this) {
      out.add(e);
    }
    return out;
  }

  /** Equal when the consolidated contents are equal (order and positions ignored). */
  @Override
  public boolean equals(Object o) {
    return o instanceof ZSet z && z.toMap().equals(toMap());
  }

  @Override
  public int hashCode() {
    return toMap().hashCode();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < rows.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(rows[i]).append(weights[i] >= 0 ? " +" : " ").append(weights[i]);
      if (position(i) >= 0) {
        sb.append(" @").append(position(i));
      }
    }
    return sb.append('}').toString();
  }

  /**
   * Collects entries into a {@link ZSet}. Allocates nothing until the first entry; a build that
   * fills the buffer exactly hands its arrays over instead of copying them.
   */
  public static final class Builder {
    private static final int FIRST_CAPACITY = 4;
    private Row[] rows;
    private long[] weights;
    private int size;
    private boolean shared; // the arrays now belong to a built ZSet: copy before changing them

    private Builder() {}

    public Builder add(Row row, long weight) {
      if (rows == null) {
        rows = new Row[FIRST_CAPACITY];
        weights = new long[FIRST_CAPACITY];
      } else if (shared || size == rows.length) {
        int cap = size == rows.length ? size * 2 : rows.length;
        rows = Arrays.copyOf(rows, cap);
        weights = Arrays.copyOf(weights, cap);
        shared = false;
      }
      rows[size] = row;
      weights[size] = weight;
      size++;
      return this;
    }

    public Builder insert(Row row) {
      return add(row, 1);
    }

    public Builder delete(Row row) {
      return add(row, -1);
    }

    /** Retracts {@code before} and inserts {@code after}. */
    public Builder update(Row before, Row after) {
      return add(before, -1).add(after, 1);
    }

    public ZSet build() {
      if (size == 0) {
        return EMPTY;
      }
      if (size == rows.length) {
        shared = true;
        return new ZSet(rows, weights, null);
      }
      return new ZSet(Arrays.copyOf(rows, size), Arrays.copyOf(weights, size), null);
    }
  }
}
