package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Values;
import dev.rivulet.query.LiveCollection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Results as plain nested lists, so that a live query's rows and the database's answer compare
 * with {@code equals}: a row is the list of its values, an array include the list of its rows, a
 * one include a row or null, a collection include its current rows sorted; scalars canonical.
 */
final class PlainValues {
  private PlainValues() {}

  static Object of(Object v) {
    if (v == null) {
      return null;
    }
    if (v instanceof Row r) {
      List<Object> out = new ArrayList<>(r.width());
      for (int i = 0; i < r.width(); i++) {
        out.add(of(r.get(i)));
      }
      return out;
    }
    if (v instanceof LiveCollection c) {
      return sorted(rows(c.rows()));
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      l.forEach(e -> out.add(of(e)));
      return out;
    }
    return Values.canonical(v);
  }

  static List<Object> rows(List<Row> rows) {
    List<Object> out = new ArrayList<>(rows.size());
    rows.forEach(r -> out.add(of(r)));
    return out;
  }

  /** {@code rows} in a fixed order of their text (for comparing as multisets). */
  static List<Object> sorted(List<Object> rows) {
    List<Object> out = new ArrayList<>(rows);
    out.sort(Comparator.comparing(String::valueOf));
    return out;
  }
}
