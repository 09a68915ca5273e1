package dev.rivulet.bench.peers;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.ToIntFunction;

/**
 * The open rows of an edge stream in its order, the Java twin of {@code OpenOrder} and {@code
 * TitleOrder} in {@code gen.mjs}: rows fall into buckets (W1: one per priority, highest first; W6:
 * one), each a sorted array searched by bisection and spliced by an array copy. Kept outside the
 * timed section, as the JavaScript runner keeps its own, and built the same way, so that neither
 * driver's bookkeeping costs more than the other's. Confined to the driver's thread.
 */
final class OpenOrder {
  private final Comparator<PeerData.Issue> order;
  private final ToIntFunction<PeerData.Issue> bucketOf;
  private final PeerData.Issue[][] buckets;
  private final int[] sizes;
  private int size;

  /** {@code bucketOf} maps a row to {@code [0, buckets)}, in the order's direction. */
  OpenOrder(PeerData.Issue[] rows, Comparator<PeerData.Issue> order, int buckets,
      ToIntFunction<PeerData.Issue> bucketOf) {
    this.order = order;
    this.bucketOf = bucketOf;
    this.buckets = new PeerData.Issue[buckets][];
    this.sizes = new int[buckets];
    for (PeerData.Issue r : rows) {
      if (r.isOpen()) {
        sizes[bucketOf.applyAsInt(r)]++;
      }
    }
    for (int b = 0; b < buckets; b++) {
      this.buckets[b] = new PeerData.Issue[Math.max(16, sizes[b] + sizes[b] / 4)];
      size += sizes[b];
      sizes[b] = 0;
    }
    for (PeerData.Issue r : rows) {
      if (r.isOpen()) {
        int b = bucketOf.applyAsInt(r);
        this.buckets[b][sizes[b]++] = r;
      }
    }
    for (int b = 0; b < buckets; b++) {
      Arrays.sort(this.buckets[b], 0, sizes[b], order);
    }
  }

  int size() {
    return size;
  }

  /** The row at position {@code k} of the order. */
  PeerData.Issue at(int k) {
    for (int b = 0; b < buckets.length; b++) {
      if (k < sizes[b]) {
        return buckets[b][k];
      }
      k -= sizes[b];
    }
    throw new IndexOutOfBoundsException("OpenOrder.at " + k + " past " + size);
  }

  /** Replaces {@code before} (the row's stored version) by {@code after}, each only if open. */
  void apply(PeerData.Issue before, PeerData.Issue after) {
    if (before.isOpen()) {
      int b = bucketOf.applyAsInt(before);
      int i = position(b, before);
      if (i == sizes[b] || buckets[b][i].id() != before.id()) {
        throw new IllegalStateException("OpenOrder lost row " + before.id());
      }
      System.arraycopy(buckets[b], i + 1, buckets[b], i, sizes[b] - i - 1);
      buckets[b][--sizes[b]] = null;
      size--;
    }
    if (after.isOpen()) {
      int b = bucketOf.applyAsInt(after);
      int i = position(b, after);
      if (sizes[b] == buckets[b].length) {
        buckets[b] = Arrays.copyOf(buckets[b], sizes[b] * 2);
      }
      System.arraycopy(buckets[b], i, buckets[b], i + 1, sizes[b] - i);
      buckets[b][i] = after;
      sizes[b]++;
      size++;
    }
  }

  /** The first index of bucket {@code b} whose row is not before {@code r}. */
  private int position(int b, PeerData.Issue r) {
    PeerData.Issue[] rows = buckets[b];
    int lo = 0;
    int hi = sizes[b];
    while (lo < hi) {
      int m = (lo + hi) >>> 1;
      if (order.compare(rows[m], r) < 0) {
        lo = m + 1;
      } else {
        hi = m;
      }
    }
    return lo;
  }
}
