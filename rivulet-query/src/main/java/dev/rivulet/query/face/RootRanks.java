package dev.rivulet.query.face;

import dev.rivulet.engine.Row;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The root list of a change-tree subscriber as a sequence of stored rows with their ranks: an
 * implicit treap (ordered by position, not by value) with parent links, so that inserting or
 * removing at an index and finding the index of a row each take O(log n) expected. The
 * change-tree face places Child changes of root rows by it without reading the whole root.
 *
 * <p>Rows are distinct (a stored row holds its key). Guarded by the face's monitor (the database's).
 */
final class RootRanks {
  private static final class Node {
    Row row;
    final int priority;
    int size = 1;
    Node left;
    Node right;
    Node parent;

    Node(Row row, int priority) {
      this.row = row;
      this.priority = priority;
    }
  }

  private final SplittableRandom random = new SplittableRandom(0x5EEDL);
  private final Map<Row, Node> nodes = new HashMap<>();
  private Node root;

  /** The number of rows. */
  int size() {
    return size(root);
  }

  /** Inserts {@code row} at {@code index} (0 .. size). */
  void insert(int index, Row row) {
    if (index < 0 || index > size()) {
      throw new IllegalStateException("root rank: index " + index + " outside 0.." + size());
    }
    Node n = new Node(row, random.nextInt());
    if (nodes.put(row, n) != null) {
      throw new IllegalStateException("root rank: row " + row + " is already held");
    }
    Node[] parts = split(root, index);
    root = merge(merge(parts[0], n), parts[1]);
    root.parent = null;
  }

  /** Appends {@code row}. */
  void add(Row row) {
    insert(size(), row);
  }

  /** Removes and returns the row at {@code index}. */
  Row removeAt(int index) {
    if (index < 0 || index >= size()) {
      throw new IllegalStateException("root rank: index " + index + " outside 0.." + (size() - 1));
    }
    Node[] head = split(root, index);
    Node[] tail = split(head[1], 1);
    root = merge(head[0], tail[1]);
    if (root != null) {
      root.parent = null;
    }
    nodes.remove(tail[0].row);
    return tail[0].row;
  }

  /** Removes {@code row}; whether it was held. */
  boolean remove(Row row) {
    Node n = nodes.get(row);
    if (n == null) {
      return false;
    }
    removeAt(rank(n));
    return true;
  }

  /** Puts {@code after} where {@code before} is. */
  void replace(Row before, Row after) {
    Node n = nodes.remove(before);
    if (n == null) {
      throw new IllegalStateException("root rank: row " + before + " is not held");
    }
    n.row = after;
    nodes.put(after, n);
  }

  /** The index of {@code row}, or -1 when it is not held. */
  int indexOf(Row row) {
    Node n = nodes.get(row);
    return n == null ? -1 : rank(n);
  }

  private static int rank(Node n) {
    int index = size(n.left);
    for (Node c = n; c.parent != null; c = c.parent) {
      if (c == c.parent.right) {
        index += size(c.parent.left) + 1;
      }
    }
    return index;
  }

  private static int size(Node n) {
    return n == null ? 0 : n.size;
  }

  private static Node update(Node n) {
    n.size = 1 + size(n.left) + size(n.right);
    if (n.left != null) {
      n.left.parent = n;
    }
    if (n.right != null) {
      n.right.parent = n;
    }
    return n;
  }

  /** The first {@code k} nodes of {@code t}, and the rest (their roots' parents unset by the caller). */
  private static Node[] split(Node t, int k) {
    if (t == null) {
      return new Node[2];
    }
    if (size(t.left) >= k) {
      Node[] parts = split(t.left, k);
      t.left = parts[1];
      if (parts[0] != null) {
        parts[0].parent = null;
      }
      return new Node[] {parts[0], update(t)};
    }
    Node[] parts = split(t.right, k - size(t.left) - 1);
    t.right = parts[0];
    if (parts[1] != null) {
      parts[1].parent = null;
    }
    return new Node[] {update(t), parts[1]};
  }

  private static Node merge(Node a, Node b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    if (a.priority > b.priority) {
      a.right = merge(a.right, b);
      return update(a);
    }
    b.left = merge(a, b.left);
    return update(b);
  }
}
