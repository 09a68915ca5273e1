package dev.rivulet.query.compile;

import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryIR;
import dev.rivulet.query.SubsetRequest;
import dev.rivulet.query.expr.Expressions;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a block's order and limit may go down to the lazy source it reads, so that a request
 * loads each demanded value's first rows only. They may when the block's window sees the
 * source's rows, filtered: one relation (its {@code from}, a table), no grouping, aggregates,
 * distinct or cursor, an order of plain columns of that relation and a positive limit. Then the
 * first {@code offset + limit} rows per value in the source's order (the same sort keys, NULL
 * placements and key tie-break as the window's) that pass the block's where hold every row the
 * window shows; the demand adapter loads rows until that many pass (or the value has no more).
 * The window stays in the graph, so more rows than that change nothing. Stateless.
 */
final class DemandPushdown {
  /**
   * The order and per-value limit of a pushed-down read, and the block's where over the source's
   * rows (null: none), which decides which loaded rows count toward the limit.
   */
  record Window(List<SubsetRequest.Order> order, int limit, java.util.function.Predicate<dev.rivulet.engine.Row> filter) {}

  private DemandPushdown() {}

  /**
   * The window of {@code s} a read of its {@code from} table may push down, or null; {@code
   * scope} resolves the table's columns in its rows (for the where).
   */
  static Window of(QueryIR.Select s, dev.rivulet.query.expr.Scope scope) {
    if (!s.joins().isEmpty() || !s.groupBy().isEmpty() || s.having() != null || s.distinct()
        || s.after() != null || s.orderBy().isEmpty() || !(s.from().relation() instanceof QueryIR.Table)) {
      return null;
    }
    long limit = s.findOne() ? 1 : s.limit() == null ? 0 : s.limit();
    if (limit <= 0 || limit + s.offset() >= SubsetRequest.UNLIMITED) {
      return null;
    }
    for (QueryIR.SelectItem item : s.select()) {
      if (Expressions.hasAggregate(item.expr())) {
        return null; // a global aggregate: one row from all of them
      }
    }
    String alias = s.from().alias();
    List<SubsetRequest.Order> order = new ArrayList<>();
    for (QueryIR.OrderItem o : s.orderBy()) {
      if (!(o.expr() instanceof Expr.Col c) || !c.alias().equals(alias)
          || !((QueryIR.Table) s.from().relation()).source().schema().has(c.column())) {
        return null;
      }
      order.add(new SubsetRequest.Order(c.column(), o.descending(), o.nullsFirst()));
    }
    java.util.function.Predicate<dev.rivulet.engine.Row> filter = null;
    if (s.where() != null) {
      try {
        filter = dev.rivulet.query.expr.ExprCompiler.predicate(s.where(), scope, "where");
      } catch (dev.rivulet.query.QueryException e) {
        return null; // the block's own filter reports it
      }
    }
    return new Window(order, (int) (limit + s.offset()), filter);
  }
}
