package dev.rivulet.query;

import dev.rivulet.engine.Values;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.RandomAccess;

/**
 * A position in an ordered query's total order: the values of the row's sort keys followed by its
 * result key, as a window delta carries it. {@link Query#after} starts a query strictly after it,
 * and {@link LiveWindow#reanchor} moves a live window to it. Values are canonical (see {@link
 * Values}); NULL is allowed and sorts as its sort key says. Immutable.
 */
public record Cursor(List<Object> values) {
  public Cursor {
    if (!(values instanceof Owned)) {
      Object[] canonical = new Object[values.size()];
      for (int i = 0; i < canonical.length; i++) {
        canonical[i] = Values.canonical(values.get(i));
      }
      values = new Owned(canonical);
    }
  }

  /** The cursor of canonical values the caller hands over (a stored row's: no copy, no check). */
  static Cursor ofCanonical(Object[] values) {
    return new Cursor(new Owned(values));
  }

  /** An immutable list over an array of canonical values that no one else holds. */
  private static final class Owned extends AbstractList<Object> implements RandomAccess {
    private final Object[] values;

    Owned(Object[] values) {
      this.values = values;
    }

    @Override
    public Object get(int i) {
      return values[i];
    }

    @Override
    public int size() {
      return values.length;
    }
  }

  public static Cursor of(Object... values) {
    List<Object> list = new ArrayList<>(values.length);
    Collections.addAll(list, values);
    return new Cursor(list);
  }
}
