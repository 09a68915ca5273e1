package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads live nested results into the plain trees of {@link IncludeNaive} (a row is a {@code
 * List<Object>}; see there), and into the change-tree face's {@link CaughtNode} form, and folds
 * {@link TreeBatch}es. A live value of the wrong Java type for its include is an {@link
 * AssertionError} naming the column.
 */
final class IncludeTrees {
  private IncludeTrees() {}

  /** The trees of live rows of {@code q}. */
  static List<List<Object>> of(List<Row> rows, QueryIR q) {
    List<List<Object>> out = new ArrayList<>();
    for (Row r : rows) {
      out.add(of(r, (QueryIR.Select) q));
    }
    return out;
  }

  /** The tree of one live row of the block {@code s}. */
  static List<Object> of(Row row, QueryIR.Select s) {
    if (row.width() != s.select().size()) {
      throw new AssertionError("a row of " + s.select().size() + " columns " + names(s) + " has " + row.width()
          + ": " + row);
    }
    List<Object> out = new ArrayList<>();
    Row canonical = row.canonical();
    for (int i = 0; i < row.width(); i++) {
      QueryIR.SelectItem item = s.select().get(i);
      Object v = row.get(i);
      if (!(item.expr() instanceof Expr.Include inc)) {
        out.add(canonical.get(i));
        continue;
      }
      QueryIR.Select child = (QueryIR.Select) inc.query();
      String what = "include '" + item.name() + "' (" + inc.mode() + ")";
      switch (inc.mode()) {
        case ARRAY:
          if (!(v instanceof List<?> l)) {
            throw new AssertionError(what + " holds " + describe(v) + ", not a List<Row>");
          }
          out.add(children(l, child, what));
          break;
        case ONE:
          if (v != null && !(v instanceof Row)) {
            throw new AssertionError(what + " holds " + describe(v) + ", not a Row or null");
          }
          out.add(v == null ? null : of((Row) v, child));
          break;
        case CONCAT:
          if (!(v instanceof String)) {
            throw new AssertionError(what + " holds " + describe(v) + ", not a String");
          }
          out.add(v);
          break;
        default:
          if (!(v instanceof LiveCollection c)) {
            throw new AssertionError(what + " holds " + describe(v) + ", not a LiveCollection");
          }
          out.add(children(c.rows(), child, what));
      }
    }
    return out;
  }

  /**
   * Adds to {@code out} the collection facades that live rows of block {@code s} hold directly
   * (not those inside their nested values).
   */
  static void facades(List<Row> rows, QueryIR.Select s, java.util.Set<LiveCollection> out) {
    for (Row row : rows) {
      for (int i = 0; i < s.select().size(); i++) {
        if (row.get(i) instanceof LiveCollection c) {
          out.add(c);
        }
      }
    }
  }

  /** Adds to {@code out} every collection facade reachable from live rows of block {@code s}. */
  static void allFacades(List<Row> rows, QueryIR.Select s, java.util.Set<LiveCollection> out) {
    for (Row row : rows) {
      for (int i = 0; i < s.select().size(); i++) {
        if (!(s.select().get(i).expr() instanceof Expr.Include inc)) {
          continue;
        }
        QueryIR.Select child = (QueryIR.Select) inc.query();
        Object v = row.get(i);
        if (v instanceof LiveCollection c) {
          out.add(c);
          allFacades(c.rows(), child, out);
        } else if (v instanceof Row r) {
          allFacades(List.of(r), child, out);
        } else if (v instanceof List<?> l) {
          List<Row> kids = new ArrayList<>();
          l.forEach(o -> kids.add((Row) o));
          allFacades(kids, child, out);
        }
      }
    }
  }

  private static List<List<Object>> children(List<?> rows, QueryIR.Select child, String what) {
    List<List<Object>> out = new ArrayList<>();
    for (Object o : rows) {
      if (!(o instanceof Row r)) {
        throw new AssertionError(what + " holds an element " + describe(o) + ", not a Row");
      }
      out.add(of(r, child));
    }
    return out;
  }

  private static String describe(Object v) {
    return v == null ? "null" : v.getClass().getName() + " " + v;
  }

  private static List<String> names(QueryIR.Select s) {
    List<String> out = new ArrayList<>();
    for (QueryIR.SelectItem i : s.select()) {
      out.add(i.name());
    }
    return out;
  }

  /**
   * The change-tree form of a tree row of block {@code s}: the scalar columns (concatenations
   * included) as a row, each relationship include (array, one, collection; in select order) as a
   * slot of child nodes, a ONE include's slot holding zero or one node, a COLLECTION include's
   * slot its bucket's rows.
   */
  @SuppressWarnings("unchecked")
  static CaughtNode node(List<Object> tree, QueryIR.Select s) {
    List<Object> scalars = new ArrayList<>();
    SortedMap<Integer, List<CaughtNode>> rels = new TreeMap<>();
    for (int i = 0; i < tree.size(); i++) {
      QueryIR.SelectItem item = s.select().get(i);
      if (!(item.expr() instanceof Expr.Include inc) || inc.mode() == Expr.IncludeMode.CONCAT) {
        scalars.add(tree.get(i));
        continue;
      }
      QueryIR.Select child = (QueryIR.Select) inc.query();
      List<CaughtNode> kids = new ArrayList<>();
      if (inc.mode() == Expr.IncludeMode.ONE) {
        if (tree.get(i) != null) {
          kids.add(node((List<Object>) tree.get(i), child));
        }
      } else {
        for (Object c : (List<Object>) tree.get(i)) {
          kids.add(node((List<Object>) c, child));
        }
      }
      rels.put(rels.size(), kids);
    }
    return new CaughtNode(Row.of(scalars), rels);
  }

  /**
   * {@code n} (a node of block {@code s}) with every COLLECTION slot emptied, at any depth: a
   * collection facade's own change-tree face shows its rows' collection slots empty.
   */
  static CaughtNode withoutCollections(CaughtNode n, QueryIR.Select s) {
    SortedMap<Integer, List<CaughtNode>> rels = new TreeMap<>();
    int slot = 0;
    for (QueryIR.SelectItem item : s.select()) {
      if (!(item.expr() instanceof Expr.Include inc) || inc.mode() == Expr.IncludeMode.CONCAT) {
        continue;
      }
      List<CaughtNode> kids = new ArrayList<>();
      if (inc.mode() != Expr.IncludeMode.COLLECTION) {
        for (CaughtNode k : n.relationships().getOrDefault(slot, List.of())) {
          kids.add(withoutCollections(k, (QueryIR.Select) inc.query()));
        }
      }
      rels.put(slot++, kids);
    }
    return new CaughtNode(n.row(), rels);
  }

  /** {@link #withoutCollections} of each node. */
  static List<CaughtNode> withoutCollections(List<CaughtNode> nodes, QueryIR q) {
    List<CaughtNode> out = new ArrayList<>();
    for (CaughtNode n : nodes) {
      out.add(withoutCollections(n, (QueryIR.Select) q));
    }
    return out;
  }

  /** The change-tree form of tree rows of {@code q}. */
  static List<CaughtNode> nodes(List<List<Object>> trees, QueryIR q) {
    List<CaughtNode> out = new ArrayList<>();
    for (List<Object> t : trees) {
      out.add(node(t, (QueryIR.Select) q));
    }
    return out;
  }

  /** {@code nodes} sorted by their text: the comparable form of an unordered list. */
  static List<CaughtNode> unordered(List<CaughtNode> nodes) {
    List<CaughtNode> out = new ArrayList<>(nodes);
    out.sort(Comparator.comparing(CaughtNode::toString));
    return out;
  }

  /**
   * Applies {@code change} to {@code list} (a list of nodes of block {@code s}: the root, or one
   * relationship's children). A removed node must be the one at its index (unordered: one equal
   * to it), collection slots and all.
   */
  static void apply(List<CaughtNode> list, CaughtChange change, QueryIR.Select s) {
    if (change instanceof CaughtChange.Add a) {
      if (a.index() < -1 || a.index() > list.size()) {
        throw new AssertionError("add at " + a.index() + " into a list of " + list.size() + ": " + a);
      }
      list.add(a.index() == -1 ? list.size() : a.index(), a.node());
    } else if (change instanceof CaughtChange.Remove r) {
      CaughtNode want = r.node();
      int at = r.index() == -1 ? list.indexOf(want) : r.index();
      if (at < 0 || at >= list.size() || !list.get(at).equals(want)) {
        throw new AssertionError("remove of a node that is not at " + r.index() + ": " + r + " from " + list);
      }
      list.remove(at);
    } else if (change instanceof CaughtChange.Edit e) {
      int at = find(list, e.old(), e);
      list.set(at, new CaughtNode(e.row(), list.get(at).relationships()));
    } else {
      CaughtChange.Child c = (CaughtChange.Child) change;
      int at = find(list, c.row(), c);
      CaughtNode n = list.get(at);
      SortedMap<Integer, List<CaughtNode>> rels = new TreeMap<>(n.relationships());
      if (!rels.containsKey(c.relationship())) {
        throw new AssertionError("child change in relationship " + c.relationship() + " that " + n + " lacks");
      }
      List<CaughtNode> kids = new ArrayList<>(rels.get(c.relationship()));
      apply(kids, c.change(), relationship(s, c.relationship()));
      rels.put(c.relationship(), kids);
      list.set(at, new CaughtNode(n.row(), rels));
    }
  }

  /** The child block of relationship slot {@code slot} of block {@code s}. */
  private static QueryIR.Select relationship(QueryIR.Select s, int slot) {
    return (QueryIR.Select) include(s, slot).query();
  }

  private static Expr.Include include(QueryIR.Select s, int slot) {
    int k = 0;
    for (QueryIR.SelectItem item : s.select()) {
      if (item.expr() instanceof Expr.Include inc && inc.mode() != Expr.IncludeMode.CONCAT && k++ == slot) {
        return inc;
      }
    }
    throw new AssertionError("no relationship slot " + slot + " in " + s.select());
  }

  /** How many collection relationships the chain of Child changes {@code c} (of block {@code s}) goes into. */
  static int collectionsCrossed(CaughtChange c, QueryIR.Select s) {
    int n = 0;
    while (c instanceof CaughtChange.Child child) {
      Expr.Include inc = include(s, child.relationship());
      n += inc.mode() == Expr.IncludeMode.COLLECTION ? 1 : 0;
      s = (QueryIR.Select) inc.query();
      c = child.change();
    }
    return n;
  }

  private static int find(List<CaughtNode> list, Row row, CaughtChange change) {
    int at = -1;
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).row().equals(row)) {
        if (at >= 0) {
          throw new AssertionError("two nodes hold " + row + " for " + change);
        }
        at = i;
      }
    }
    if (at < 0) {
      throw new AssertionError("no node holds " + row + " for " + change + " in " + list);
    }
    return at;
  }
}
