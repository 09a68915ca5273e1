package dev.rivulet.query;

import dev.rivulet.engine.Values;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A position in an ordered query's total order: the values of the row's sort keys followed by its
 * result key, as a window delta carries it. {@link Query#after} starts a query strictly after it,
 * and {@link LiveWindow#reanchor} moves a live window to it. Values are canonical (see {@link
 * Values}); NULL is allowed and sorts as its sort key says.
 */
public record Cursor(List<Object> values) {
  public Cursor {
    List<Object> canonical = new ArrayList<>(values.size());
    for (Object v : values) {
      canonical.add(Values.canonical(v));
    }
    values = Collections.unmodifiableList(canonical);
  }

  public static Cursor of(Object... values) {
    List<Object> list = new ArrayList<>(values.length);
    Collections.addAll(list, values);
    return new Cursor(list);
  }
}
