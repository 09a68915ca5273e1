package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.expr.Scope;
import java.util.HashMap;
import java.util.Map;

/** A {@link Scope} over one schema under one alias, for expression tests. */
final class TestScope implements Scope {
  private final String alias;
  private final Map<String, Slot> slots = new HashMap<>();

  TestScope(String alias, Schema schema) {
    this.alias = alias;
    for (int i = 0; i < schema.width(); i++) {
      Column c = schema.column(i);
      slots.put(c.name(), new Slot(i, c.type(), c.nullable()));
    }
  }

  static TestScope of(String alias, String schema) {
    return new TestScope(alias, Schema.parse(schema));
  }

  @Override
  public Slot resolve(Expr.Col col, String clause) {
    Slot s = col.alias().equals(alias) ? slots.get(col.column()) : null;
    if (s == null) {
      throw new QueryException(clause + ": unknown column " + col + "; known: " + alias + ".* " + slots.keySet());
    }
    return s;
  }
}
