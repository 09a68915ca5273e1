package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.ref.RefEval;
import dev.rivulet.query.ref.RefScope;
import dev.rivulet.query.ref.RefType;
import dev.rivulet.query.ref.RefTypes;
import dev.rivulet.query.sql.SqlRenderer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The relations of one query block side by side, for the oracle suite: each alias with its
 * visible schema at an offset in the concatenated row. Resolves {@code alias.column} for the
 * reference ({@link RefEval}, {@link RefTypes}) and {@link SqlRenderer}, independently of the
 * compiler's own {@code Layout}; a column's type is its declared one, read by name ({@link
 * RefType#of}). Immutable.
 */
final class BlockScope implements RefScope {
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
  public Slot slot(Expr.Col col) {
    Part p = parts.get(col.alias());
    if (p != null) {
      for (int i = 0; i < p.schema().width(); i++) {
        Column c = p.schema().column(i);
        if (c.name().equals(col.column())) {
          return new Slot(p.offset() + i, RefType.of(c.type()));
        }
      }
    }
    throw new IllegalArgumentException("(oracle scope) unknown column " + col + " in " + parts.keySet());
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
