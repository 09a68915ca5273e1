package dev.rivulet.engine.state;

import java.util.Arrays;
import java.util.Comparator;

/**
 * A sorted multiset with rank and select: a counted B+tree. Leaves hold up to {@value #CAP} keys
 * with their multiplicities; inner nodes hold each child's smallest key and total multiplicity.
 * Every operation is O(log n) in the number of distinct keys, plus O(k) for a range visit of k
 * keys; a descent touches a handful of nodes whose keys sit in arrays, which keeps it to a few
 * cache misses even over millions of keys.
 *
 * <p>Ranks count occurrences: a key with multiplicity 3 occupies three consecutive ranks. {@link
 * #rank} is the number of occurrences strictly before a key, {@link #select} the key at an
 * occurrence rank.
 *
 * <p>A leaf whose keys all have multiplicity 1 (a top-K's rows, the usual case) stores no array of
 * counts; its first other count makes one.
 *
 * <p>Keys may come with primitive {@link Prefix}es, compared before the keys themselves, so most
 * comparisons read only a node's {@code long[]} and not the key object.
 *
 * <p>Not thread-safe: owned by the operator that uses it.
 *
 * @param <K> keys, totally ordered by the comparator given at construction
 */
public final class OrderStatisticTree<K> {
  static final int CAP = 64;
  private static final int MIN_FILL = CAP / 4;

  /**
   * Optional primitive prefixes of keys. Contract: for keys a, b, {@code first(a) < first(b)}
   * implies a &lt; b; and when {@code first(a) == first(b)}, {@code second(a) < second(b)} implies
   * a &lt; b.
   */
  public interface Prefix<K> {
    long first(K key);

    long second(K key);
  }

  /** Receives one key of a range visit. */
  @FunctionalInterface
  public interface RangeVisitor<K> {
    /**
     * @param key the key
     * @param start the rank of its first occurrence
     * @param count its multiplicity
     */
    void visit(K key, long start, long count);
  }

  /** A node: {@code n} entries, each a key (a leaf's own, an inner node's child's smallest). */
  private abstract static class Node {
    final Object[] keys = new Object[CAP + 1];
    final long[] p0 = new long[CAP + 1];
    final long[] p1 = new long[CAP + 1];
    long[] counts; // multiplicity, or the child's total; a leaf's is null while every count is 1
    int n;
    long size;

    Node(long[] counts) {
      this.counts = counts;
    }

    final long countAt(int i) {
      return counts == null ? 1 : counts[i];
    }

    /** Sets the count at {@code i}, making a leaf's array on its first count other than 1. */
    final void setCount(int i, long count) {
      if (counts == null) {
        if (count == 1) {
          return;
        }
        materialize();
      }
      counts[i] = count;
    }

    /** Gives a leaf whose counts are all 1 its array of them. */
    final void materialize() {
      counts = new long[CAP + 1];
      Arrays.fill(counts, 0, n, 1);
    }

    final void insertSlot(int i, Object key, long q0, long q1, long count) {
      if (counts == null && count != 1) {
        materialize();
      }
      int tail = n - i;
      System.arraycopy(keys, i, keys, i + 1, tail);
      System.arraycopy(p0, i, p0, i + 1, tail);
      System.arraycopy(p1, i, p1, i + 1, tail);
      if (counts != null) {
        System.arraycopy(counts, i, counts, i + 1, tail);
        counts[i] = count;
      }
      keys[i] = key;
      p0[i] = q0;
      p1[i] = q1;
      n++;
    }

    void removeSlot(int i) {
      int tail = n - i - 1;
      System.arraycopy(keys, i + 1, keys, i, tail);
      System.arraycopy(p0, i + 1, p0, i, tail);
      System.arraycopy(p1, i + 1, p1, i, tail);
      if (counts != null) {
        System.arraycopy(counts, i + 1, counts, i, tail);
      }
      n--;
      keys[n] = null;
    }

    /** Moves entries [from, n) to the end of {@code dst}. */
    void moveTail(int from, Node dst) {
      int k = n - from;
      System.arraycopy(keys, from, dst.keys, dst.n, k);
      System.arraycopy(p0, from, dst.p0, dst.n, k);
      System.arraycopy(p1, from, dst.p1, dst.n, k);
      if (counts != null && dst.counts == null) {
        dst.materialize();
      }
      if (counts != null) {
        System.arraycopy(counts, from, dst.counts, dst.n, k);
      } else if (dst.counts != null) {
        Arrays.fill(dst.counts, dst.n, dst.n + k, 1);
      }
      dst.n += k;
      Arrays.fill(keys, from, n, null);
      n = from;
    }

    final long sumCounts(int to) {
      if (counts == null) {
        return to;
      }
      long s = 0;
      for (int i = 0; i < to; i++) {
        s += counts[i];
      }
      return s;
    }

    abstract Node newSibling();
  }

  private static final class Leaf extends Node {
    Leaf() {
      super(null);
    }

    @Override
    Node newSibling() {
      return new Leaf();
    }
  }

  private static final class Inner extends Node {
    final Node[] kids = new Node[CAP + 1];

    Inner() {
      super(new long[CAP + 1]);
    }

    @Override
    void removeSlot(int i) {
      System.arraycopy(kids, i + 1, kids, i, n - i - 1);
      super.removeSlot(i);
      kids[n] = null;
    }

    void insertKid(int i, Node kid) {
      System.arraycopy(kids, i, kids, i + 1, n - i);
      kids[i] = kid;
      Object k = kid.keys[0];
      insertSlot(i, k, kid.p0[0], kid.p1[0], kid.size);
    }

    @Override
    void moveTail(int from, Node dst) {
      System.arraycopy(kids, from, ((Inner) dst).kids, dst.n, n - from);
      Arrays.fill(kids, from, n, null);
      super.moveTail(from, dst);
    }

    @Override
    Node newSibling() {
      return new Inner();
    }
  }

  private final Comparator<? super K> order;
  private final Prefix<K> prefix;
  private Node root = new Leaf();
  private int distinct;
  private long lastCount;
  private long q0; // prefixes of the key being looked up
  private long q1;

  public OrderStatisticTree(Comparator<? super K> order) {
    this(order, null);
  }

  /** A tree that compares {@code prefix}es before calling {@code order}. */
  public OrderStatisticTree(Comparator<? super K> order, Prefix<K> prefix) {
    this.order = order;
    this.prefix = prefix;
  }

  /** Total multiplicity. */
  public long size() {
    return root.size;
  }

  /** Number of distinct keys. */
  public int distinct() {
    return distinct;
  }

  public boolean isEmpty() {
    return root.size == 0;
  }

  /** The multiplicity found by the latest {@link #rankAndCount} or set by {@link #add}. */
  public long lastCount() {
    return lastCount;
  }

  private void probe(K key) {
    if (prefix != null) {
      q0 = prefix.first(key);
      q1 = prefix.second(key);
    }
  }

  @SuppressWarnings("unchecked")
  private int compareAt(K key, Node node, int i) {
    long a = node.p0[i];
    if (q0 != a) {
      return q0 < a ? -1 : 1;
    }
    long b = node.p1[i];
    if (q1 != b) {
      return q1 < b ? -1 : 1;
    }
    return order.compare(key, (K) node.keys[i]);
  }

  /** First slot of a leaf whose key is >= key. */
  private int lowerBound(K key, Node leaf) {
    int lo = 0;
    int hi = leaf.n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareAt(key, leaf, mid) > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The child of an inner node whose range holds key: the last with smallest key <= key. */
  private int childFor(K key, Node inner) {
    int lo = 1;
    int hi = inner.n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareAt(key, inner, mid) >= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo - 1;
  }

  /** Multiplicity of {@code key} (0 when absent). */
  public long count(K key) {
    rankAndCount(key);
    return lastCount;
  }

  /** Number of occurrences strictly before {@code key}, whether or not it is present. */
  public long rank(K key) {
    return rankAndCount(key);
  }

  /**
   * Like {@link #rank}, in the same descent also finding the multiplicity of {@code key}, which
   * {@link #lastCount} then returns.
   */
  public long rankAndCount(K key) {
    probe(key);
    long r = 0;
    Node node = root;
    while (node instanceof Inner in) {
      int i = childFor(key, in);
      r += in.sumCounts(i);
      node = in.kids[i];
    }
    int s = lowerBound(key, node);
    r += node.sumCounts(s);
    lastCount = s < node.n && compareAt(key, node, s) == 0 ? node.countAt(s) : 0;
    return r;
  }

  /**
   * The key at occurrence {@code rank}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= rank < size()}
   */
  @SuppressWarnings("unchecked")
  public K select(long rank) {
    if (rank < 0 || rank >= size()) {
      throw new IndexOutOfBoundsException("rank " + rank + " of " + size());
    }
    Node node = root;
    while (true) {
      int i = 0;
      while (rank >= node.countAt(i)) {
        rank -= node.countAt(i);
        i++;
      }
      if (node instanceof Inner in) {
        node = in.kids[i];
      } else {
        return (K) node.keys[i];
      }
    }
  }

  /** The smallest key, or null when empty. */
  @SuppressWarnings("unchecked")
  public K first() {
    return root.n == 0 ? null : (K) root.keys[0];
  }

  /** The largest key, or null when empty. */
  @SuppressWarnings("unchecked")
  public K last() {
    Node node = root;
    while (node instanceof Inner in) {
      node = in.kids[in.n - 1];
    }
    return node.n == 0 ? null : (K) node.keys[node.n - 1];
  }

  /**
   * Replaces {@code old}, held once, by {@code now} in its slot, when {@code now} takes that place
   * in the order: strictly between the keys beside {@code old} in its leaf (a key first or last in
   * a leaf that is not the root is not replaced: its neighbour lies in another node). One descent;
   * no node changes shape.
   *
   * @return the rank of {@code old}, now {@code now}'s; -1 when nothing was replaced ({@code old}
   *     absent or held more than once, or {@code now} not fitting its slot)
   */
  public long replace(K old, K now) {
    probe(old);
    long r = 0;
    Node node = root;
    while (node instanceof Inner in) {
      int i = childFor(old, in);
      r += in.sumCounts(i);
      node = in.kids[i];
    }
    int s = lowerBound(old, node);
    if (s >= node.n || compareAt(old, node, s) != 0 || node.countAt(s) != 1
        || node != root && (s == 0 || s == node.n - 1)) {
      return -1;
    }
    probe(now);
    if (s > 0 && compareAt(now, node, s - 1) <= 0 || s < node.n - 1 && compareAt(now, node, s + 1) >= 0) {
      return -1;
    }
    node.keys[s] = now;
    node.p0[s] = q0;
    node.p1[s] = q1;
    lastCount = 1;
    return r + node.sumCounts(s);
  }

  /**
   * Adds {@code delta} to the multiplicity of {@code key}, removing the key when it reaches zero.
   *
   * @return the new multiplicity
   * @throws IllegalStateException when the multiplicity would become negative; the tree is then
   *     unchanged
   */
  public long add(K key, long delta) {
    if (delta == 0) {
      return count(key);
    }
    probe(key);
    Node split = add(root, key, delta);
    if (split != null) {
      Inner top = new Inner();
      top.insertKid(0, root);
      top.insertKid(1, split);
      top.size = root.size + split.size;
      root = top;
    } else if (root instanceof Inner in && in.n <= 1) {
      root = in.n == 1 ? in.kids[0] : new Leaf();
    }
    return lastCount;
  }

  /** Adds within {@code node}; returns the new right sibling when the node split. */
  private Node add(Node node, K key, long delta) {
    if (node instanceof Inner in) {
      int i = childFor(key, in);
      Node kid = in.kids[i];
      Node split = add(kid, key, delta);
      in.size += delta;
      refresh(in, i);
      if (split != null) {
        in.insertKid(i + 1, split);
        in.counts[i] = kid.size;
      } else if (kid.n < MIN_FILL) {
        rebalance(in, i);
      }
      return in.n > CAP ? split(in) : null;
    }
    int s = lowerBound(key, node);
    if (s < node.n && compareAt(key, node, s) == 0) {
      long next = node.countAt(s) + delta;
      if (next < 0) {
        throw new IllegalStateException("multiplicity of " + key + " would become " + next);
      }
      lastCount = next;
      node.size += delta;
      if (next == 0) {
        node.removeSlot(s);
        distinct--;
      } else {
        node.setCount(s, next);
      }
      return null;
    }
    if (delta < 0) {
      throw new IllegalStateException("multiplicity of " + key + " would become " + delta);
    }
    lastCount = delta;
    node.insertSlot(s, key, q0, q1, delta);
    node.size += delta;
    distinct++;
    return node.n > CAP ? split(node) : null;
  }

  /** Re-reads child i's smallest key and total into its parent slot (drops it when empty). */
  private static void refresh(Inner in, int i) {
    Node kid = in.kids[i];
    if (kid.n == 0) {
      in.removeSlot(i);
      return;
    }
    in.keys[i] = kid.keys[0];
    in.p0[i] = kid.p0[0];
    in.p1[i] = kid.p1[0];
    in.counts[i] = kid.size;
  }

  /** Merges an underfull child i into a neighbour when both fit in one node. */
  private static void rebalance(Inner in, int i) {
    if (i >= in.n) {
      return; // child i was empty and is gone
    }
    int left = i > 0 ? i - 1 : i;
    int right = left + 1;
    if (right >= in.n || in.kids[left].n + in.kids[right].n > CAP) {
      return;
    }
    Node a = in.kids[left];
    Node b = in.kids[right];
    b.moveTail(0, a);
    a.size += b.size;
    in.removeSlot(right);
    in.counts[left] = a.size;
  }

  private static Node split(Node node) {
    Node right = node.newSibling();
    int half = node.n / 2;
    node.moveTail(half, right);
    right.size = right.sumCounts(right.n);
    node.size -= right.size;
    return right;
  }

  /**
   * Fills an empty tree from distinct keys in ascending order with positive counts, in O(n).
   *
   * @throws IllegalStateException when the tree is not empty
   */
  public void bulkLoad(K[] sorted, long[] counts, int n) {
    long[] p0 = new long[n];
    long[] p1 = new long[n];
    if (prefix != null) {
      for (int i = 0; i < n; i++) {
        p0[i] = prefix.first(sorted[i]);
        p1[i] = prefix.second(sorted[i]);
      }
    }
    bulkLoad(sorted, counts, p0, p1, n);
  }

  /** {@link #bulkLoad(Object[], long[], int)} with the keys' prefixes already computed. */
  public void bulkLoad(K[] sorted, long[] counts, long[] p0, long[] p1, int n) {
    if (!isEmpty()) {
      throw new IllegalStateException("bulkLoad needs an empty tree");
    }
    if (n == 0) {
      return;
    }
    int fill = CAP * 7 / 8; // room for a few insertions per node before it splits
    Node[] level = new Node[(n + fill - 1) / fill];
    for (int l = 0; l < level.length; l++) {
      level[l] = leaf(sorted, counts, p0, p1, l * fill, Math.min(n, l * fill + fill));
    }
    while (level.length > 1) {
      Node[] up = new Node[(level.length + fill - 1) / fill];
      for (int u = 0; u < up.length; u++) {
        Inner in = new Inner();
        for (int i = u * fill, end = Math.min(level.length, i + fill); i < end; i++) {
          in.insertKid(in.n, level[i]);
          in.size += level[i].size;
        }
        up[u] = in;
      }
      level = up;
    }
    root = level[0];
    distinct = n;
  }

  /** A leaf holding entries {@code [from, to)} of sorted arrays (a bulk load's), copied whole. */
  private static Leaf leaf(Object[] sorted, long[] counts, long[] p0, long[] p1, int from, int to) {
    Leaf leaf = new Leaf();
    int k = to - from;
    System.arraycopy(sorted, from, leaf.keys, 0, k);
    System.arraycopy(p0, from, leaf.p0, 0, k);
    System.arraycopy(p1, from, leaf.p1, 0, k);
    long size = 0;
    for (int i = from; i < to; i++) {
      size += counts[i];
    }
    leaf.n = k;
    if (size != k) { // some count is not 1
      leaf.materialize();
      System.arraycopy(counts, from, leaf.counts, 0, k);
    }
    leaf.size = size;
    return leaf;
  }

  /**
   * Visits, in order, every distinct key with an occurrence in ranks {@code [from, to)}.
   * O(log n + k).
   */
  public void visitRange(long from, long to, RangeVisitor<K> visitor) {
    from = Math.max(0, from);
    to = Math.min(size(), to);
    if (from < to) {
      visit(root, 0, from, to, visitor);
    }
  }

  @SuppressWarnings("unchecked")
  private void visit(Node node, long base, long from, long to, RangeVisitor<K> visitor) {
    long start = base;
    for (int i = 0; i < node.n && start < to; i++) {
      long c = node.countAt(i);
      if (start + c > from) {
        if (node instanceof Inner in) {
          visit(in.kids[i], start, from, to, visitor);
        } else {
          visitor.visit((K) node.keys[i], start, c);
        }
      }
      start += c;
    }
  }

  /** The number of leaves, and of those that store an array of counts (for tests). */
  int[] leafCounts() {
    int[] out = new int[2];
    countLeaves(root, out);
    return out;
  }

  private static void countLeaves(Node node, int[] out) {
    if (node instanceof Inner in) {
      for (int i = 0; i < in.n; i++) {
        countLeaves(in.kids[i], out);
      }
      return;
    }
    out[0]++;
    out[1] += node.counts != null ? 1 : 0;
  }
}
