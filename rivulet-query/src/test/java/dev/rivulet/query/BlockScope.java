package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.compile.Layout;
import dev.rivulet.query.expr.ExprCompiler;
import dev.rivulet.query.expr.Scope;
import dev.rivulet.query.expr.TypeChecker;
import dev.rivulet.query.sql.SqlRenderer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The relations of one query block side by side, for the oracle suite: each alias with its
 * visible schema at an offset in the concatenated row. Resolves {@code alias.column} for {@link
 * ExprCompiler}, {@link TypeChecker} and {@link SqlRenderer}, independently of the compiler's own
 * {@code Layout}. Immutable.
 */
final class BlockScope implements Scope {
  /** One relation: its alias, visible columns, and where they start in the row. */
  record Part(String alias, Schema schema, int offset) {}

  private final Map<String, Part> parts;
  private final int width;

  private BlockScope(Map<String, Part> parts, int width) {
    this.parts = parts;
    this.width = width;
  }

  static BlockScope empty() {
    return new BlockScope(new LinkedHashMap<>(), 0);
  }

  static BlockScope of(String alias, Schema schema) {
    return empty().append(alias, schema);
  }

  /** This scope with relation {@code alias} appended after the others. */
  BlockScope append(String alias, Schema schema) {
    Map<String, Part> next = new LinkedHashMap<>(parts);
    if (next.put(alias, new Part(alias, schema, width)) != null) {
      throw new IllegalArgumentException("alias " + alias + " twice in one block");
    }
    return new BlockScope(next, width + schema.width());
  }

  int width() {
    return width;
  }

  List<Part> parts() {
    return new ArrayList<>(parts.values());
  }

  Part part(String alias) {
    return parts.get(alias);
  }

  boolean has(String alias) {
    return parts.containsKey(alias);
  }

  @Override
  public Slot resolve(Expr.Col col, String clause) {
    Part p = parts.get(col.alias());
    if (p == null || !p.schema().has(col.column())) {
      throw new QueryException(clause + ": (oracle scope) unknown column " + col + " in " + parts.keySet());
    }
    int i = p.schema().indexOf(col.column());
    Column c = p.schema().column(i);
    return new Slot(p.offset() + i, c.type(), true);
  }

  /** Every visible column as a reference, in row order. */
  List<Expr.Col> columns() {
    List<Expr.Col> out = new ArrayList<>();
    for (Part p : parts.values()) {
      for (Column c : p.schema().columns()) {
        out.add(new Expr.Col(p.alias(), c.name()));
      }
    }
    return out;
  }
}
