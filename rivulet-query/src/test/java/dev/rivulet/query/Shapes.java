package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.ref.RefScope;
import dev.rivulet.query.ref.RefType;
import dev.rivulet.query.ref.RefTypes;
import java.util.ArrayList;
import java.util.List;

/**
 * The visible output columns of a query, computed from the IR alone (names and types), for the
 * oracle suite: the naive evaluator's scopes, the SQL renderer's types, and a check of the
 * compiler's {@code LiveQuery.resultSchema()}.
 *
 * <p>The documented rules: a source's visible columns are its leading columns without the hidden
 * {@code __} ones; a block without a select list shows a lone relation's columns as they are and,
 * with several relations, every column as {@code alias.column}; a select item has the type
 * the reference typing table {@link RefTypes} gives it (over the group row for a grouping block:
 * group expressions as they are, aggregates per {@link RefTypes#aggregate}); a union has its
 * first part's column names, each typed as the common type of the parts' columns ({@link
 * RefTypes#common}: INT with DOUBLE is DOUBLE), as SQL's UNION does. All output columns are nullable here
 * (nullability is not compared).
 */
final class Shapes {
  private Shapes() {}

  static Schema of(QueryIR q) {
    if (q instanceof QueryIR.UnionAll u) {
      Schema first = of(u.parts().get(0));
      List<Column> cols = new ArrayList<>();
      for (int i = 0; i < first.width(); i++) {
        RefType t = RefType.of(first.column(i).type());
        for (int p = 1; p < u.parts().size(); p++) {
          RefType unified = RefTypes.common(t, RefType.of(of(u.parts().get(p)).column(i).type()));
          t = unified == null ? t : unified;
        }
        cols.add(Column.of(first.column(i).name(), t.declared()));
      }
      return Schema.of(cols);
    }
    QueryIR.Select s = (QueryIR.Select) q;
    BlockScope scope = scope(s);
    List<Column> cols = new ArrayList<>();
    if (s.select().isEmpty()) {
      boolean qualify = scope.parts().size() > 1;
      for (BlockScope.Part p : scope.parts()) {
        for (Column c : p.schema().columns()) {
          cols.add(Column.of(qualify ? p.alias() + "." + c.name() : c.name(), c.type()));
        }
      }
      return Schema.of(cols);
    }
    RefScope itemScope = scope;
    List<Expr> groups = s.groupBy();
    List<Expr.Agg> aggs = ExprTrees.blockAggregates(s);
    boolean grouped = ExprTrees.groups(s);
    if (grouped) {
      itemScope = groupScope(s, scope);
    }
    for (QueryIR.SelectItem item : s.select()) {
      Expr e = grouped ? ExprTrees.overGroup(item.expr(), groups, aggs, "__g") : item.expr();
      cols.add(Column.of(item.name(), RefTypes.typeOf(e, itemScope).declared()));
    }
    return Schema.of(cols);
  }

  /** The visible schema of a source: its leading columns that are not hidden {@code __} ones. */
  static Schema visible(Source src) {
    Schema s = src.schema();
    int v = 0;
    while (v < s.width() && !s.column(v).name().startsWith("__")) {
      v++;
    }
    return v == s.width() ? s : Schema.of(s.columns().subList(0, v));
  }

  /** The visible schema of one aliased relation. */
  static Schema relation(QueryIR.Aliased a) {
    if (a.relation() instanceof QueryIR.Table t) {
      return visible(t.source());
    }
    return of(((QueryIR.Subquery) a.relation()).query());
  }

  /** The scope of a block's relations (before grouping). */
  static BlockScope scope(QueryIR.Select s) {
    BlockScope scope = BlockScope.of(s.from().alias(), relation(s.from()));
    for (QueryIR.Join j : s.joins()) {
      scope = scope.append(j.relation().alias(), relation(j.relation()));
    }
    return scope;
  }

  /** The scope of a grouping block's group row: alias {@code __g}, columns g0.. then a0... */
  static BlockScope groupScope(QueryIR.Select s, BlockScope input) {
    List<Column> cols = new ArrayList<>();
    for (int i = 0; i < s.groupBy().size(); i++) {
      cols.add(Column.of("g" + i, RefTypes.typeOf(s.groupBy().get(i), input).declared()));
    }
    List<Expr.Agg> aggs = ExprTrees.blockAggregates(s);
    for (int j = 0; j < aggs.size(); j++) {
      cols.add(Column.of("a" + j, RefTypes.aggregate(aggs.get(j), input).declared()));
    }
    return BlockScope.of("__g", Schema.of(cols));
  }

  /** True when two schemas have the same column names and types (nullability aside). */
  static boolean sameNamesAndTypes(Schema a, Schema b) {
    if (a.width() != b.width()) {
      return false;
    }
    for (int i = 0; i < a.width(); i++) {
      RefType x = RefType.of(a.column(i).type());
      RefType y = RefType.of(b.column(i).type());
      if (!a.column(i).name().equals(b.column(i).name()) || x != y) {
        return false;
      }
    }
    return true;
  }
}
