package dev.rivulet.query.compile;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import dev.rivulet.query.expr.Scope;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The relations of one query block as they sit side by side in the rows flowing through it: each
 * alias with its visible columns at an offset, and the positions of its key columns. Resolves
 * column references for expressions. Immutable.
 */
public final class Layout implements Scope {
  /** One aliased relation: visible schema at {@code offset}; {@code keys} are absolute indexes. */
  record Part(String alias, Schema schema, int offset, int[] keys, boolean nullable) {}

  private final Map<String, Part> parts;
  private final int width;

  private Layout(Map<String, Part> parts, int width) {
    this.parts = parts;
    this.width = width;
  }

  static Layout empty() {
    return new Layout(new LinkedHashMap<>(), 0);
  }

  /**
   * This layout with a relation of {@code rowWidth} columns appended: {@code visible} are its
   * first columns, {@code keys} its key column indexes (relative to the relation).
   */
  Layout append(String alias, Schema visible, int rowWidth, int[] keys) {
    Map<String, Part> next = new LinkedHashMap<>(parts);
    int[] abs = new int[keys.length];
    for (int i = 0; i < keys.length; i++) {
      abs[i] = width + keys[i];
    }
    next.put(alias, new Part(alias, visible, width, abs, false));
    return new Layout(next, width + rowWidth);
  }

  /**
   * This layout with, of each relation, only the visible columns {@code needed} accepts (by alias
   * and column name) and its key columns, then all its hidden columns, in their order; {@code
   * kept} receives the positions in a row of this layout of the columns the result keeps, in order.
   */
  Layout pruned(java.util.function.BiPredicate<String, String> needed, List<Integer> kept) {
    Map<String, Part> next = new LinkedHashMap<>();
    List<Part> ps = parts();
    int at = 0;
    for (int k = 0; k < ps.size(); k++) {
      Part p = ps.get(k);
      int end = k + 1 < ps.size() ? ps.get(k + 1).offset : width;
      List<Column> visible = new ArrayList<>();
      int[] keys = new int[p.keys.length];
      int start = at;
      for (int c = p.offset; c < end; c++) {
        int key = indexOf(p.keys, c);
        boolean shown = c - p.offset < p.schema.width();
        if (shown && key < 0 && !needed.test(p.alias, p.schema.column(c - p.offset).name())) {
          continue;
        }
        if (shown) {
          visible.add(p.schema.column(c - p.offset));
        }
        for (int i = 0; i < p.keys.length; i++) {
          if (p.keys[i] == c) {
            keys[i] = at;
          }
        }
        kept.add(c);
        at++;
      }
      next.put(p.alias, new Part(p.alias, Schema.of(visible), start, keys, p.nullable));
    }
    return new Layout(next, at);
  }

  private static int indexOf(int[] a, int v) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] == v) {
        return i;
      }
    }
    return -1;
  }

  /** This layout followed by the one relation of {@code single}. */
  Layout then(Layout single) {
    Part p = single.parts.values().iterator().next();
    int[] rel = new int[p.keys.length];
    for (int i = 0; i < rel.length; i++) {
      rel[i] = p.keys[i] - p.offset;
    }
    return append(p.alias, p.schema, single.width - p.offset, rel);
  }

  /** This layout with the relations in {@code aliases} marked as possibly null-extended. */
  Layout nullable(java.util.Collection<String> aliases) {
    Map<String, Part> next = new LinkedHashMap<>();
    for (Map.Entry<String, Part> e : parts.entrySet()) {
      Part p = e.getValue();
      boolean nulled = aliases.contains(e.getKey());
      next.put(e.getKey(), nulled ? new Part(e.getKey(), p.schema.nullable(), p.offset, p.keys, true) : p);
    }
    return new Layout(next, width);
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

  /** Every relation's key column indexes, in order. */
  int[] keys() {
    int n = 0;
    for (Part p : parts.values()) {
      n += p.keys.length;
    }
    int[] out = new int[n];
    int i = 0;
    for (Part p : parts.values()) {
      for (int k : p.keys) {
        out[i++] = k;
      }
    }
    return out;
  }

  @Override
  public Slot resolve(Expr.Col col, String clause) {
    Part p = parts.get(col.alias());
    if (p == null) {
      throw new QueryException(clause + ": unknown alias '" + col.alias() + "' in " + col + "; aliases in scope: "
          + parts.keySet());
    }
    if (!p.schema.has(col.column())) {
      throw new QueryException(clause + ": unknown column '" + col.column() + "' of " + col.alias() + " ("
          + p.schema.names() + ")");
    }
    int i = p.schema.indexOf(col.column());
    Column c = p.schema.column(i);
    return new Slot(p.offset + i, c.type(), c.nullable() || p.nullable);
  }

  /** The visible columns of every relation, named {@code alias.column} when there are several. */
  List<Column> visibleColumns() {
    List<Column> out = new ArrayList<>();
    boolean qualify = parts.size() > 1;
    for (Part p : parts.values()) {
      for (Column c : p.schema.columns()) {
        out.add(new Column(qualify ? p.alias + "." + c.name() : c.name(), c.type(), c.nullable() || p.nullable));
      }
    }
    return out;
  }

  /** Absolute indexes of {@link #visibleColumns()}. */
  int[] visibleIndexes() {
    int n = 0;
    for (Part p : parts.values()) {
      n += p.schema.width();
    }
    int[] out = new int[n];
    int at = 0;
    for (Part p : parts.values()) {
      for (int i = 0; i < p.schema.width(); i++) {
        out[at++] = p.offset + i;
      }
    }
    return out;
  }
}
