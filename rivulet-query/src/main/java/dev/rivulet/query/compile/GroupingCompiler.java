package dev.rivulet.query.compile;

import dev.rivulet.engine.Aggregate;
import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.Stream;
import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import dev.rivulet.query.QueryIR;
import dev.rivulet.query.expr.Evaluator;
import dev.rivulet.query.expr.ExprCompiler;
import dev.rivulet.query.expr.ExprText;
import dev.rivulet.query.expr.Expressions;
import dev.rivulet.query.expr.TypeChecker;
import java.util.ArrayList;
import java.util.List;

/**
 * Grouping and aggregates of one block: rows are mapped to (group values, aggregate arguments),
 * grouped by the engine's group-by, and the expressions that follow grouping (select, having,
 * order by) are rewritten to read the group row: a group-by expression becomes its group column,
 * an aggregate its result column, and any other column reference is an error. The result key is
 * the group values (the empty tuple for a global aggregate, which always has exactly one row).
 */
final class GroupingCompiler {
  static final String ALIAS = "__group";

  private final Layout input;
  private final List<Expr> groups;
  private final List<Expr.Agg> aggs = new ArrayList<>();
  private Layout output;

  GroupingCompiler(QueryIR.Select select, Layout input) {
    this.input = input;
    this.groups = select.groupBy();
    for (Expr g : groups) {
      Expressions.rejectAggregates(g, "group by");
    }
    for (QueryIR.SelectItem item : select.select()) {
      Expressions.aggregates(item.expr(), aggs);
    }
    if (select.having() != null) {
      Expressions.aggregates(select.having(), aggs);
    }
    for (QueryIR.OrderItem o : select.orderBy()) {
      Expressions.aggregates(o.expr(), aggs);
    }
  }

  /** Maps and groups {@code in}; afterwards {@link #scope} and {@link #rewrite} apply. */
  Stream compile(Stream in) {
    List<Column> cols = new ArrayList<>();
    List<Evaluator> evals = new ArrayList<>();
    for (int i = 0; i < groups.size(); i++) {
      ColumnType t = TypeChecker.typeOf(groups.get(i), input, "group by");
      cols.add(new Column("g" + i, t, Projection.nullable(groups.get(i), input, "group by")));
      evals.add(ExprCompiler.compile(groups.get(i), input));
    }
    List<Aggregate> specs = new ArrayList<>();
    ColumnType[] typed = new ColumnType[aggs.size()];
    for (int j = 0; j < aggs.size(); j++) {
      Expr.Agg a = aggs.get(j);
      String clause = "aggregate " + ExprText.of(a); // not the record's toString: its first call bootstraps ObjectMethods
      typed[j] = TypeChecker.aggregateType(a, input, clause);
      if (a.arg() != null) {
        Expressions.rejectAggregates(a.arg(), clause);
      }
      if (a.distinct() && a.fn() != Expr.AggFn.COUNT) {
        throw new QueryException(clause + ": distinct is only supported in count");
      }
      String out = "a" + j;
      if (a.arg() == null) {
        specs.add(Aggregate.countRows(out));
        continue;
      }
      String arg = "x" + j;
      cols.add(Column.of(arg, TypeChecker.typeOf(a.arg(), input, clause)));
      evals.add(ExprCompiler.compile(a.arg(), input));
      specs.add(switch (a.fn()) {
        case COUNT -> a.distinct() ? Aggregate.countDistinct(arg, out) : Aggregate.count(arg, out);
        case SUM -> Aggregate.sum(arg, out);
        case AVG -> Aggregate.avg(arg, out);
        case MIN -> Aggregate.min(arg, out);
        case MAX -> Aggregate.max(arg, out);
      });
    }
    Stream pre = in.map(Schema.of(cols), Evaluator.rowOf(evals.toArray(new Evaluator[0])));
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < groups.size(); i++) {
      keys.add("g" + i);
    }
    Stream grouped = pre.groupBy(keys, specs.toArray(new Aggregate[0]));
    for (int j = 0; j < typed.length; j++) {
      // The query's typing and the engine's must agree: the compiled query is typed by the former.
      ColumnType engine = grouped.schema().column(groups.size() + j).type();
      if (engine != typed[j]) {
        throw new IllegalStateException("aggregate " + aggs.get(j) + ": typed " + typed[j] + " by the query layer but "
            + engine + " by the engine");
      }
    }
    int[] keyIdx = new int[groups.size()];
    for (int i = 0; i < keyIdx.length; i++) {
      keyIdx[i] = i;
    }
    output = Layout.empty().append(ALIAS, grouped.schema(), grouped.schema().width(), keyIdx);
    return grouped;
  }

  Layout scope() {
    return output;
  }

  /** The group row's key columns. */
  int[] keys() {
    return output.keys();
  }

  /** {@code e} rewritten to read the group row; fails on a column neither grouped nor aggregated. */
  Expr rewrite(Expr e, String clause) {
    return Expressions.rewrite(e, x -> {
      int g = Expressions.indexOf(groups, x);
      if (g >= 0) {
        return new Expr.Col(ALIAS, "g" + g);
      }
      if (x instanceof Expr.Agg a) {
        return new Expr.Col(ALIAS, "a" + Expressions.indexOf(aggs, a));
      }
      if (x instanceof Expr.Col c) {
        throw new QueryException(clause + ": column " + c + " must appear in group by or be used in an aggregate");
      }
      return x;
    });
  }
}
