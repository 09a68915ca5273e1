package dev.rivulet.engine.state;

import java.util.Comparator;

/**
 * A sorted multiset with rank and select: an AVL tree whose nodes hold a key, its multiplicity and
 * the total multiplicity of their subtree. Every operation is O(log n) in the number of distinct
 * keys, plus O(k) for a range visit of k keys.
 *
 * <p>Ranks count occurrences: a key with multiplicity 3 occupies three consecutive ranks. {@link
 * #rank} is the number of occurrences strictly before a key, {@link #select} the key at an
 * occurrence rank.
 *
 * <p>Not thread-safe: owned by the operator that uses it.
 *
 * @param <K> keys, totally ordered by the comparator given at construction
 */
public final class OrderStatisticTree<K> {
  private static final class Node<K> {
    final K key;
    long count;
    long size;
    int height = 1;
    Node<K> left;
    Node<K> right;

    Node(K key, long count) {
      this.key = key;
      this.count = count;
      this.size = count;
    }
  }

  private final Comparator<? super K> order;
  private Node<K> root;
  private int nodes;
  private long lastCount; // result of the latest add, set at the node it reached

  public OrderStatisticTree(Comparator<? super K> order) {
    this.order = order;
  }

  /** Total multiplicity. */
  public long size() {
    return root == null ? 0 : root.size;
  }

  /** Number of distinct keys. */
  public int distinct() {
    return nodes;
  }

  public boolean isEmpty() {
    return root == null;
  }

  /** Multiplicity of {@code key} (0 when absent). */
  public long count(K key) {
    Node<K> n = root;
    while (n != null) {
      int c = order.compare(key, n.key);
      if (c == 0) {
        return n.count;
      }
      n = c < 0 ? n.left : n.right;
    }
    return 0;
  }

  /** Number of occurrences strictly before {@code key}, whether or not it is present. */
  public long rank(K key) {
    long r = 0;
    Node<K> n = root;
    while (n != null) {
      int c = order.compare(key, n.key);
      if (c <= 0) {
        if (c == 0) {
          return r + size(n.left);
        }
        n = n.left;
      } else {
        r += size(n.left) + n.count;
        n = n.right;
      }
    }
    return r;
  }

  /**
   * The key at occurrence {@code rank}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= rank < size()}
   */
  public K select(long rank) {
    if (rank < 0 || rank >= size()) {
      throw new IndexOutOfBoundsException("rank " + rank + " of " + size());
    }
    Node<K> n = root;
    while (true) {
      long l = size(n.left);
      if (rank < l) {
        n = n.left;
      } else if (rank < l + n.count) {
        return n.key;
      } else {
        rank -= l + n.count;
        n = n.right;
      }
    }
  }

  /** The smallest key, or null when empty. */
  public K first() {
    Node<K> n = root;
    if (n == null) {
      return null;
    }
    while (n.left != null) {
      n = n.left;
    }
    return n.key;
  }

  /** The largest key, or null when empty. */
  public K last() {
    Node<K> n = root;
    if (n == null) {
      return null;
    }
    while (n.right != null) {
      n = n.right;
    }
    return n.key;
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
    root = add(root, key, delta);
    return lastCount;
  }

  private Node<K> add(Node<K> n, K key, long delta) {
    if (n == null) {
      if (delta < 0) {
        throw new IllegalStateException("multiplicity of " + key + " would become " + delta);
      }
      nodes++;
      lastCount = delta;
      return new Node<>(key, delta);
    }
    int c = order.compare(key, n.key);
    if (c == 0) {
      long next = n.count + delta;
      if (next < 0) {
        throw new IllegalStateException("multiplicity of " + key + " would become " + next);
      }
      lastCount = next;
      if (next == 0) {
        nodes--;
        return removeNode(n);
      }
      n.count = next;
      n.size += delta;
      return n;
    }
    if (c < 0) {
      n.left = add(n.left, key, delta);
    } else {
      n.right = add(n.right, key, delta);
    }
    return rebalance(n);
  }

  private Node<K> removeNode(Node<K> n) {
    if (n.left == null) {
      return n.right;
    }
    if (n.right == null) {
      return n.left;
    }
    // Replace by the successor: detach the leftmost node of the right subtree.
    Node<K> succ = n.right;
    while (succ.left != null) {
      succ = succ.left;
    }
    Node<K> right = removeMin(n.right);
    succ.right = right;
    succ.left = n.left;
    return rebalance(succ);
  }

  private Node<K> removeMin(Node<K> n) {
    if (n.left == null) {
      return n.right;
    }
    n.left = removeMin(n.left);
    return rebalance(n);
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

  private void visit(Node<K> n, long base, long from, long to, RangeVisitor<K> visitor) {
    if (n == null) {
      return;
    }
    long l = size(n.left);
    long start = base + l;
    if (from < start) {
      visit(n.left, base, from, to, visitor);
    }
    if (start < to && start + n.count > from) {
      visitor.visit(n.key, start, n.count);
    }
    if (start + n.count < to) {
      visit(n.right, start + n.count, from, to, visitor);
    }
  }

  private static long size(Node<?> n) {
    return n == null ? 0 : n.size;
  }

  private static int height(Node<?> n) {
    return n == null ? 0 : n.height;
  }

  private static <K> void update(Node<K> n) {
    n.height = 1 + Math.max(height(n.left), height(n.right));
    n.size = n.count + size(n.left) + size(n.right);
  }

  private static <K> Node<K> rebalance(Node<K> n) {
    update(n);
    int balance = height(n.left) - height(n.right);
    if (balance > 1) {
      if (height(n.left.left) < height(n.left.right)) {
        n.left = rotateLeft(n.left);
      }
      return rotateRight(n);
    }
    if (balance < -1) {
      if (height(n.right.right) < height(n.right.left)) {
        n.right = rotateRight(n.right);
      }
      return rotateLeft(n);
    }
    return n;
  }

  private static <K> Node<K> rotateRight(Node<K> n) {
    Node<K> l = n.left;
    n.left = l.right;
    l.right = n;
    update(n);
    update(l);
    return l;
  }

  private static <K> Node<K> rotateLeft(Node<K> n) {
    Node<K> r = n.right;
    n.right = r.left;
    r.left = n;
    update(n);
    update(r);
    return r;
  }
}
