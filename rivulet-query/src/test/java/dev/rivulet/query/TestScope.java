package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.expr.Scope;
import dev.rivulet.query.ref.RefScope;
import dev.rivulet.query.ref.RefType;
import java.util.HashMap;
import java.util.Map;

/**
 * One schema under one alias, for expression tests: a {@link Scope} for the query layer's compiler
 * under test, and a {@link RefScope} for the reference evaluator (declared types read by name).
 */
final class TestScope implements Scope, RefScope {
  private final String alias;
  private final Map<String, Scope.Slot> slots = new HashMap<>();

  TestScope(String alias, Schema schema) {
    this.alias = alias;
    for (int i = 0; i < schema.width(); i++) {
      Column c = schema.column(i);
      slots.put(c.name(), new Scope.Slot(i, c.type(), c.nullable()));
    }
  }

  static TestScope of(String alias, String schema) {
    return new TestScope(alias, Schema.parse(schema));
  }

  @Override
  public RefScope.Slot slot(Expr.Col col) {
    Scope.Slot s = resolve(col, "reference");
    return new RefScope.Slot(s.index(), RefType.of(s.type()));
  }

  @Override
  public Scope.Slot resolve(Expr.Col col, String clause) {
    Scope.Slot s = col.alias().equals(alias) ? slots.get(col.column()) : null;
    if (s == null) {
      throw new QueryException(clause + ": unknown column " + col + "; known: " + alias + ".* " + slots.keySet());
    }
    return s;
  }
}
