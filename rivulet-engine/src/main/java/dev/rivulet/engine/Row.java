package dev.rivulet.engine;

import java.util.Arrays;
import java.util.List;

/**
 * An immutable tuple of canonical values (see {@link Values}) with a hash computed once, on first
 * use (rows that are never hashed, such as intermediate rows of a pipeline, never pay for it).
 *
 * <p>Equality is value equality of the canonical values, so two rows built from {@code 2} and
 * {@code 2.0} are equal. {@link #compareTo} is the lexicographic total order of {@link
 * Values#compare}, used as the stable tie-break wherever rows are sorted.
 */
public final class Row implements Comparable<Row> {
  private static final Row EMPTY = new Row(new Object[0]);
  private final Object[] values;
  private int hash; // computed on first use; 0 also when not yet computed (racy but idempotent)

  private Row(Object[] values) {
    this.values = values;
  }

  /** A row of the canonical forms of {@code values}. */
  public static Row of(Object... values) {
    Object[] copy = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      copy[i] = Values.canonical(values[i]);
    }
    return new Row(copy);
  }

  public static Row of(List<?> values) {
    return of(values.toArray());
  }

  /** A row of {@code width} nulls. */
  public static Row nulls(int width) {
    return width == 0 ? EMPTY : new Row(new Object[width]);
  }

  /** Takes ownership of {@code canonical}, whose values must already be canonical. */
  static Row wrap(Object[] canonical) {
    return new Row(canonical);
  }

  public int width() {
    return values.length;
  }

  public Object get(int i) {
    return values[i];
  }

  public long getLong(int i) {
    return (Long) values[i];
  }

  public String getString(int i) {
    return (String) values[i];
  }

  public boolean isNull(int i) {
    return values[i] == null;
  }

  /** The values at {@code columns}, in that order. */
  public Row project(int[] columns) {
    Object[] out = new Object[columns.length];
    for (int i = 0; i < columns.length; i++) {
      out[i] = values[columns[i]];
    }
    return new Row(out);
  }

  /** True when any of {@code columns} is null (SQL keys with a null never match). */
  public boolean anyNull(int[] columns) {
    for (int c : columns) {
      if (values[c] == null) {
        return true;
      }
    }
    return false;
  }

  /** This row's values followed by {@code other}'s. */
  public Row concat(Row other) {
    Object[] out = Arrays.copyOf(values, values.length + other.values.length);
    System.arraycopy(other.values, 0, out, values.length, other.values.length);
    return new Row(out);
  }

  /** A copy with column {@code i} set to the canonical form of {@code v}. */
  public Row with(int i, Object v) {
    Object[] out = values.clone();
    out[i] = Values.canonical(v);
    return new Row(out);
  }

  /** A copy with {@code extra} appended. */
  public Row append(Object... extra) {
    Object[] out = Arrays.copyOf(values, values.length + extra.length);
    for (int i = 0; i < extra.length; i++) {
      out[values.length + i] = Values.canonical(extra[i]);
    }
    return new Row(out);
  }

  public List<Object> toList() {
    return Arrays.asList(values.clone());
  }

  @Override
  public int compareTo(Row o) {
    int n = Math.min(values.length, o.values.length);
    for (int i = 0; i < n; i++) {
      int c = Values.compare(values[i], o.values[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(values.length, o.values.length);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    return o instanceof Row r && r.hashCode() == hashCode() && Arrays.equals(values, r.values);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Arrays.hashCode(values);
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(Values.render(values[i]));
    }
    return sb.append(']').toString();
  }
}
