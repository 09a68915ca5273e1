package dev.rivulet.engine;

import java.util.Arrays;

/**
 * A mutable, reusable batch of (row, weight[, position]) entries: the buffer that carries changes
 * between operators inside one run. Not thread-safe; owned by the graph's run loop.
 *
 * <p>A batch adopted whole ({@link #adopt}, a hydration's) has unit weights: every entry weighs
 * one and {@link #weights} is not allocated (an empty array) until {@link #materialize}. Every
 * method here materializes first where it needs them; code that reads {@link #weights} directly
 * either handles {@link #unitWeights} or materializes (the run loop does it for each operator's
 * inputs, see {@link Operator#readsUnitWeights}).
 */
final class Delta {
  private static final int SMALL = 8;
  private static final int KEEP = 1024;
  private static final long[] UNALLOCATED = new long[0];
  Row[] rows;
  long[] weights;
  int[] positions; // null until an entry carries a position
  private int[] spare; // a cleared positions array, kept to avoid reallocating it every run
  int size;
  private boolean ones; // unit weights, not allocated
  // An operator's input: the graph's set of operators with pending input, and this one's bit in
  // it, set whenever entries arrive (null for a buffer that feeds no operator).
  private long[] pendingBits;
  private int pendingBit;

  Delta() {
    this(4);
  }

  Delta(int capacity) {
    rows = new Row[capacity];
    weights = new long[capacity];
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** Makes this buffer an input of the operator at bit {@code bit} of {@code bits}, which entries arriving set. */
  void feeds(long[] bits, int bit) {
    pendingBits = bits;
    pendingBit = bit;
    if (size > 0) {
      marked();
    }
  }

  /** Sets this buffer's operator's bit, when it feeds one (entries arrived). */
  private void marked() {
    if (pendingBits != null) {
      pendingBits[pendingBit >>> 6] |= 1L << pendingBit;
    }
  }

  void add(Row row, long weight) {
    if (ones) {
      materialize();
    }
    if (size == rows.length) {
      grow();
    }
    rows[size] = row;
    weights[size] = weight;
    if (positions != null) {
      positions[size] = -1;
    }
    size++;
    marked();
  }

  void add(Row row, long weight, int position) {
    if (positions == null) {
      positions = spare != null && spare.length >= rows.length ? spare : new int[rows.length];
      spare = null;
      Arrays.fill(positions, 0, size, -1);
    }
    add(row, weight);
    positions[size - 1] = position;
  }

  /** Appends every entry of {@code other}, without its positions (as {@link #add(Row, long)} would). */
  void addAll(Delta other) {
    int n = other.size;
    reserve(n);
    System.arraycopy(other.rows, 0, rows, size, n);
    if (other.ones) {
      Arrays.fill(weights, size, size + n, 1);
    } else {
      System.arraycopy(other.weights, 0, weights, size, n);
    }
    if (positions != null) {
      Arrays.fill(positions, size, size + n, -1);
    }
    size += n;
    marked();
  }

  /** Appends {@code src[0..n)}, each with {@code weight} (as {@link #add(Row, long)} would). */
  void addAll(Row[] src, int n, long weight) {
    reserve(n); // materializes
    System.arraycopy(src, 0, rows, size, n);
    Arrays.fill(weights, size, size + n, weight);
    if (positions != null) {
      Arrays.fill(positions, size, size + n, -1);
    }
    size += n;
    marked();
  }

  /**
   * Takes {@code src[0..n)} as the entries of this empty buffer, each with weight one (unit
   * weights, not allocated), without copying: the array becomes this buffer's (the caller no
   * longer uses it). Returns false, taking nothing, when the buffer is not empty.
   */
  boolean adopt(Row[] src, int n) {
    if (size != 0) {
      return false;
    }
    dropPositions();
    rows = src;
    weights = UNALLOCATED;
    ones = true;
    size = n;
    marked();
    return true;
  }

  /** The weight of entry {@code i}, unit weights included. */
  long weight(int i) {
    return ones ? 1 : weights[i];
  }

  /** Whether every entry weighs one and {@link #weights} is not allocated (see {@link #adopt}). */
  boolean unitWeights() {
    return ones;
  }

  /** Allocates and fills {@link #weights} of a buffer with unit weights; nothing otherwise. */
  void materialize() {
    if (ones) {
      ones = false;
      weights = new long[rows.length];
      Arrays.fill(weights, 0, size, 1);
    }
  }

  /**
   * Moves every entry of {@code src} (its positions dropped) into this empty buffer by exchanging
   * their arrays, so nothing is copied; {@code src} is left empty. Returns false, moving nothing,
   * when this buffer is not empty.
   */
  boolean takeOver(Delta src) {
    if (size != 0 || src == this) {
      return false;
    }
    Row[] r = rows;
    long[] w = weights;
    boolean o = ones;
    dropPositions();
    rows = src.rows;
    weights = src.weights;
    ones = src.ones;
    size = src.size;
    src.rows = r;
    src.weights = w;
    src.ones = o;
    src.size = 0;
    src.dropPositions();
    marked();
    return true;
  }

  void addAll(ZSet z) {
    reserve(z.size());
    for (int i = 0; i < z.size(); i++) {
      add(z.row(i), z.weight(i));
    }
  }

  /** Makes room for {@code more} entries beyond the current ones (a known large run). */
  void reserve(int more) {
    materialize();
    int need = size + more;
    if (need > rows.length) {
      int cap = Math.max(need, rows.length * 2); // many small reservations still grow geometrically
      rows = Arrays.copyOf(rows, cap);
      weights = Arrays.copyOf(weights, cap);
      if (positions != null) {
        positions = Arrays.copyOf(positions, cap);
      }
    }
  }

  private void grow() {
    int cap = Math.max(4, rows.length * 2);
    rows = Arrays.copyOf(rows, cap);
    weights = Arrays.copyOf(weights, cap);
    if (positions != null) {
      positions = Arrays.copyOf(positions, cap);
    }
  }

  /**
   * Empties the buffer. A buffer grown by a large run (a hydration) shrinks back, so idle graphs
   * do not hold hydration-sized arrays.
   */
  void clear() {
    if (rows.length > KEEP) {
      rows = new Row[16];
      weights = new long[16];
      ones = false;
      positions = null;
      spare = null;
    } else {
      materialize();
      Arrays.fill(rows, 0, size, null);
      dropPositions();
    }
    size = 0;
  }

  private void dropPositions() {
    if (positions != null) {
      spare = positions;
      positions = null;
    }
  }

  /**
   * Consolidates only when some weight is negative. An all-positive batch (a hydration) is left
   * as it is: operators whose state sums weights handle repeated rows, and only a retraction met
   * before its insertion could make such state go transiently negative.
   */
  Delta consolidateIfRetracting() {
    for (int i = 0; !ones && i < size; i++) {
      if (weights[i] < 0) {
        return consolidate();
      }
    }
    dropPositions();
    return this;
  }

  /**
   * Sums the weights of equal rows and drops zero sums, keeping first-seen order. Positions are
   * discarded: they only mean something on an operator's own output.
   */
  Delta consolidate() {
    materialize();
    dropPositions();
    if (size <= 1) {
      if (size == 1 && weights[0] == 0) {
        clear();
      }
      return this;
    }
    if (size <= SMALL) {
      consolidateSmall();
    } else {
      consolidateLarge();
    }
    return this;
  }

  private void consolidateSmall() {
    int out = 0;
    for (int i = 0; i < size; i++) {
      Row r = rows[i];
      long w = weights[i];
      int j = 0;
      while (j < out && !rows[j].equals(r)) {
        j++;
      }
      if (j < out) {
        weights[j] += w;
      } else {
        rows[out] = r;
        weights[out] = w;
        out++;
      }
    }
    compact(out);
  }

  /** Hash consolidation: an open-addressing table of output slot numbers, keyed by row hash. */
  private void consolidateLarge() {
    int cap = Integer.highestOneBit(size) * 4;
    int shift = Integer.numberOfLeadingZeros(cap) + 1;
    int[] table = new int[cap]; // output slot + 1; 0 = empty
    int[] hashes = new int[size];
    int out = 0;
    for (int i = 0; i < size; i++) {
      Row r = rows[i];
      int h = r.hashCode();
      int s = h * 0x9E3779B9 >>> shift;
      int j;
      while ((j = table[s]) != 0 && !(hashes[j - 1] == h && rows[j - 1].equals(r))) {
        s = (s + 1) & (cap - 1);
      }
      if (j != 0) {
        weights[j - 1] += weights[i];
      } else {
        table[s] = out + 1;
        hashes[out] = h;
        rows[out] = r;
        weights[out] = weights[i];
        out++;
      }
    }
    compact(out);
  }

  private void compact(int n) {
    int out = 0;
    for (int i = 0; i < n; i++) {
      if (weights[i] != 0) {
        rows[out] = rows[i];
        weights[out] = weights[i];
        out++;
      }
    }
    Arrays.fill(rows, out, size, null);
    size = out;
  }

  ZSet toZSet() {
    materialize();
    return ZSet.fromArrays(
        Arrays.copyOf(rows, size),
        Arrays.copyOf(weights, size),
        positions == null ? null : Arrays.copyOf(positions, size));
  }
}
