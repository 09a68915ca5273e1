package dev.rivulet.query.compile;

import dev.rivulet.engine.Schema;
import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryIR;
import dev.rivulet.query.expr.Expressions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Which visible columns a block still reads after each of its joins, so that an inner join can
 * emit only those (and the key columns) instead of the whole pair: the columns of the select
 * list, of the where conjuncts left above the joins, of the order, and of the later joins'
 * conditions. Planned only where nothing else reads a joined row: every join inner, an explicit
 * select list, no grouping (the caller excludes includes and correlated blocks), and every
 * referenced column a visible column of its relation (else the clauses report it unchanged).
 * Immutable.
 */
final class JoinColumns {
  private final List<Set<String>> after; // after.get(i): alias NUL column, read after join i

  private JoinColumns(List<Set<String>> after) {
    this.after = after;
  }

  /**
   * The plan for {@code s}, whose where conjuncts {@code rest} stay above the joins and whose
   * relations show {@code visible} (by alias, in join order), or null when it does not apply.
   */
  static JoinColumns of(QueryIR.Select s, List<Expr> rest, Map<String, Schema> visible) {
    if (s.joins().isEmpty() || s.select().isEmpty() || Projection.groups(s) || s.having() != null) {
      return null;
    }
    for (QueryIR.Join j : s.joins()) {
      if (j.kind() != QueryIR.JoinKind.INNER) {
        return null;
      }
    }
    Set<String> always = new HashSet<>();
    List<Expr> read = new ArrayList<>(rest);
    for (QueryIR.SelectItem item : s.select()) {
      read.add(item.expr());
    }
    for (QueryIR.OrderItem o : s.orderBy()) {
      read.add(o.expr());
    }
    for (Expr e : read) {
      if (!collect(e, visible, always)) {
        return null;
      }
    }
    List<Set<String>> after = new ArrayList<>();
    for (int i = 0; i < s.joins().size(); i++) {
      Set<String> cols = new HashSet<>(always);
      for (int k = i + 1; k < s.joins().size(); k++) {
        for (QueryIR.On on : s.joins().get(k).on()) {
          if (!collect(on.left(), visible, cols) || !collect(on.right(), visible, cols)) {
            return null;
          }
        }
      }
      after.add(cols);
    }
    return new JoinColumns(after);
  }

  /** Adds the columns {@code e} reads to {@code out}; false when one is not a visible column. */
  private static boolean collect(Expr e, Map<String, Schema> visible, Set<String> out) {
    if (e == null) {
      return true;
    }
    if (e instanceof Expr.Col c) {
      Schema sc = visible.get(c.alias());
      out.add(c.alias() + '\0' + c.column());
      return sc != null && sc.has(c.column());
    }
    if (e instanceof Expr.Include) {
      return false;
    }
    boolean ok = true;
    for (Expr x : Expressions.children(e)) {
      ok &= collect(x, visible, out); // every column is collected, as the callers' reads are
    }
    return ok;
  }

  /** Whether a column (alias, name) is read after join {@code i}. */
  BiPredicate<String, String> after(int i) {
    Set<String> cols = after.get(i);
    return (alias, column) -> cols.contains(alias + '\0' + column);
  }
}
