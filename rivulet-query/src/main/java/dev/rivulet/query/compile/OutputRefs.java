package dev.rivulet.query.compile;

import dev.rivulet.engine.Column;
import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import dev.rivulet.query.QueryIR;
import dev.rivulet.query.expr.ExprText;
import dev.rivulet.query.expr.Expressions;
import java.util.ArrayList;
import java.util.List;

/**
 * Replaces the output-column references of a block ({@link Expr.Output}: {@code ORDER BY total},
 * {@code ORDER BY 2}, {@code HAVING total > 5}) by the select items' expressions they name, before
 * the block is compiled, so that grouping, distinct and the order see the expressions themselves.
 * A block without a select list names its columns as it shows them ({@code status}, or {@code
 * i.status} over several relations). A position must be a whole order-by item; a name may also be
 * used inside an order-by or having expression.
 */
final class OutputRefs {
  private final List<String> names = new ArrayList<>();
  private final List<Expr> exprs = new ArrayList<>();

  /** The output names and expressions of a select-all block: the relations' visible columns. */
  static void selectAll(Layout layout, List<String> names, List<Expr> exprs) {
    for (Column c : layout.visibleColumns()) {
      names.add(c.name());
    }
    for (int idx : layout.visibleIndexes()) {
      exprs.add(new Expr.Col("__row", Integer.toString(idx)));
    }
  }

  private OutputRefs(QueryIR.Select s, Layout layout) {
    if (s.select().isEmpty()) {
      selectAll(layout, names, exprs);
    } else {
      for (QueryIR.SelectItem item : s.select()) {
        names.add(item.name());
        exprs.add(item.expr());
      }
    }
  }

  /** {@code s} with its order by and having free of output references. */
  static QueryIR.Select resolve(QueryIR.Select s, Layout layout) {
    boolean any = s.having() != null && has(s.having());
    for (QueryIR.OrderItem o : s.orderBy()) {
      any |= has(o.expr());
    }
    if (!any) {
      return s;
    }
    OutputRefs refs = new OutputRefs(s, layout);
    List<QueryIR.OrderItem> order = new ArrayList<>();
    for (QueryIR.OrderItem o : s.orderBy()) {
      Expr e = o.expr() instanceof Expr.Output out && out.name() == null ? refs.position(out) : refs.names(o.expr(),
          "order by");
      order.add(new QueryIR.OrderItem(e, o.descending(), o.nullsFirst()));
    }
    Expr having = s.having() == null ? null : refs.names(s.having(), "having");
    return new QueryIR.Select(s.from(), s.joins(), s.where(), s.groupBy(), having, s.select(), s.distinct(), order,
        s.limit(), s.offset(), s.findOne(), s.after());
  }

  private static boolean has(Expr e) {
    // leaves tested first and the output last: a query that names no output does not load its class
    if (Expressions.leaf(e)) {
      return false;
    }
    List<Expr> operands = Expressions.children(e);
    for (Expr x : operands) {
      if (x != null && has(x)) {
        return true;
      }
    }
    return operands.isEmpty() && e instanceof Expr.Output;
  }

  private Expr position(Expr.Output out) {
    if (out.position() > exprs.size()) {
      throw new QueryException("order by: output position " + out.position() + " is out of range; the select list"
          + " has " + exprs.size() + " column" + (exprs.size() == 1 ? "" : "s") + " " + names);
    }
    return exprs.get(out.position() - 1);
  }

  /** {@code e} with every output name replaced; a position inside it is an error. */
  private Expr names(Expr e, String clause) {
    return Expressions.rewrite(e, x -> {
      if (!(x instanceof Expr.Output out)) {
        return x;
      }
      if (out.name() == null) {
        throw new QueryException(clause + ": " + ExprText.of(out) + ": an output position names a column only as a"
            + " whole order-by item (ORDER BY 2); inside an expression, or in having, name the column"
            + (out.position() <= names.size() ? " (output(\"" + names.get(out.position() - 1) + "\"))" : ""));
      }
      int i = names.indexOf(out.name());
      if (i < 0) {
        throw new QueryException(clause + ": " + ExprText.of(out) + " names no column of the select list; its columns"
            + " are " + names);
      }
      return exprs.get(i);
    });
  }
}
