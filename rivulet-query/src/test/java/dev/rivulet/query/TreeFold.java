package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A consumer of the change-tree face, written from {@link CaughtChange}'s contract alone: it keeps
 * the result as a mutable tree and applies each change where it says. An ordered list is changed by
 * index, each index into the list as it stands; an unordered one (the root of a query without
 * order by, index -1) by value. An Edit or Child finds its row by value among its siblings: in an
 * ordered list exactly one sibling may show it, in an unordered one every sibling that shows it
 * must be the same node (they are interchangeable). Whatever does not fit is an error.
 */
final class TreeFold {
  /** A node being folded. */
  static final class Node {
    Row row;
    final TreeMap<Integer, List<Node>> relationships = new TreeMap<>();

    Node(CaughtNode n) {
      row = n.row();
      n.relationships().forEach((slot, kids) -> {
        List<Node> copy = new ArrayList<>();
        kids.forEach(k -> copy.add(new Node(k)));
        relationships.put(slot, copy);
      });
    }

    CaughtNode freeze() {
      TreeMap<Integer, List<CaughtNode>> rels = new TreeMap<>();
      relationships.forEach((slot, kids) -> rels.put(slot, kids.stream().map(Node::freeze).toList()));
      return new CaughtNode(row, rels);
    }
  }

  private final boolean ordered;
  private final List<Node> root = new ArrayList<>();

  /** @param ordered whether the root list is ordered (a query with order by) */
  TreeFold(boolean ordered) {
    this.ordered = ordered;
  }

  /** Applies {@code change} to the root; null when it fits, else what is wrong. */
  String apply(CaughtChange change) {
    return apply(root, ordered, change);
  }

  /** The folded root as immutable nodes, in list order. */
  List<CaughtNode> nodes() {
    return root.stream().map(Node::freeze).toList();
  }

  /** The rows of the root, in list order. */
  List<Row> rows() {
    return root.stream().map(n -> n.row).toList();
  }

  private static String apply(List<Node> list, boolean ordered, CaughtChange change) {
    if (change instanceof CaughtChange.Add a) {
      if (ordered ? a.index() < 0 || a.index() > list.size() : a.index() != -1) {
        return change + ": index out of range (list of " + list.size() + ", ordered " + ordered + ")";
      }
      list.add(ordered ? a.index() : list.size(), new Node(a.node()));
      return null;
    }
    if (change instanceof CaughtChange.Remove r) {
      int at = ordered ? r.index() : indexOfNode(list, r.node());
      if (!ordered && r.index() != -1 || at < 0 || at >= list.size()
          || !list.get(at).freeze().equals(r.node())) {
        return change + ": does not name a node of the list " + frozen(list);
      }
      list.remove(at);
      return null;
    }
    Row named = change instanceof CaughtChange.Edit e ? e.old() : ((CaughtChange.Child) change).row();
    Node target = find(list, ordered, named);
    if (target == null) {
      return change + ": no single row " + named + " in " + frozen(list);
    }
    if (change instanceof CaughtChange.Edit e) {
      if (e.old().equals(e.row())) {
        return change + ": an edit that changes nothing";
      }
      target.row = e.row();
      return null;
    }
    CaughtChange.Child c = (CaughtChange.Child) change;
    List<Node> kids = target.relationships.get(c.relationship());
    if (kids == null) {
      return change + ": the row has no relationship " + c.relationship();
    }
    String inner = apply(kids, true, c.change());
    return inner == null ? null : "inside " + named + " relationship " + c.relationship() + ": " + inner;
  }

  /** The one sibling showing {@code row} (or, unordered, the first of interchangeable ones), or null. */
  private static Node find(List<Node> list, boolean ordered, Row row) {
    Node found = null;
    for (Node n : list) {
      if (n.row.equals(row)) {
        if (found != null && (ordered || !found.freeze().equals(n.freeze()))) {
          return null;
        }
        found = found == null ? n : found;
      }
    }
    return found;
  }

  private static int indexOfNode(List<Node> list, CaughtNode node) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).freeze().equals(node)) {
        return i;
      }
    }
    return -1;
  }

  private static List<CaughtNode> frozen(List<Node> list) {
    return list.stream().map(Node::freeze).toList();
  }

  /** Folds {@code hydrated} (Adds only) into a new fold; null and an error in {@code errors} if not. */
  static TreeFold hydrate(boolean ordered, TreeBatch hydrated, List<String> errors, String who) {
    TreeFold f = new TreeFold(ordered);
    if (!hydrated.hydrated()) {
      errors.add(who + ": the first batch is not the hydration");
    }
    for (int i = 0; i < hydrated.changes().size(); i++) {
      CaughtChange c = hydrated.changes().get(i);
      if (!(c instanceof CaughtChange.Add a) || a.index() != (ordered ? i : -1)) {
        errors.add(who + ": hydrated with " + c + " at " + i);
        continue;
      }
      String bad = f.apply(c);
      if (bad != null) {
        errors.add(who + ": " + bad);
      }
    }
    return f;
  }
}
