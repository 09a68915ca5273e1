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
 *
 * <p>A row handed to users by a collection or a live query is <em>typed</em> ({@link
 * Schema#present}): {@link #get} and {@link #toList} return each value in its column's Java type
 * ({@link ColumnType#present}), e.g. a {@code Double} 2.0 from a DOUBLE column whose canonical
 * value is the integer 2. Equality, hashing, order, {@link #toString} and the rows derived with
 * {@link #project}, {@link #concat}, {@link #with} and {@link #append} use the canonical values,
 * so a typed row equals {@code Row.of} of the same values.
 */
public final class Row implements Comparable<Row> {
  private static final Row EMPTY = new Row(new Object[0]);
  // Canonical; an element changes only to an equal instance (EngineAccess.valuesInPlace). Read directly, not
  // through canonicalAt, by the engine's per-row hydration loops, which a fresh JVM runs interpreted.
  final Object[] values;
  final Object[] shown; // what get() returns: values itself, or the typed values (read directly by Schema.checked)
  private int hash; // computed on first use; 0 also when not yet computed (racy but idempotent)

  private Row(Object[] values) {
    this.values = values;
    this.shown = values;
  }

  private Row(Object[] values, Object[] shown) {
    this.values = values;
    this.shown = shown;
  }

  /**
   * This row typed by {@code types} at {@code columns} (see {@link ColumnType#present}): itself
   * when every value there already has its type's Java class.
   */
  Row typedBy(ColumnType[] types, int[] columns) {
    Object[] typed = null;
    for (int c : columns) {
      if (c >= values.length) {
        break;
      }
      Object v = values[c];
      Object p = v == null ? null : types[c].present(v);
      if (p != v) {
        if (typed == null) {
          typed = values.clone();
        }
        typed[c] = p;
      }
    }
    if (typed == null) {
      return canonical();
    }
    Row r = new Row(values, typed);
    r.hash = hash;
    return r;
  }

  /** This row showing {@code shown[i]} at {@code columns[i]} (see {@code EngineAccess#showing}). */
  Row showing(int[] columns, Object[] shown) {
    Object[] out = this.shown.clone();
    for (int i = 0; i < columns.length; i++) {
      out[columns[i]] = shown[i];
    }
    Row r = new Row(values, out);
    r.hash = hash;
    return r;
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

  /** The value at {@code i}: canonical, or in its column's Java type on a typed row. */
  public Object get(int i) {
    return shown[i];
  }

  /** The canonical value at {@code i}, which must be an integer within 64 bits. */
  public long getLong(int i) {
    return (Long) values[i];
  }

  public String getString(int i) {
    return (String) values[i];
  }

  /** True when {@link #get} shows values in their columns' Java types (see the class comment). */
  public boolean isTyped() {
    return shown != values;
  }

  /** This row with its canonical values shown: itself unless it is typed. */
  public Row canonical() {
    if (shown == values) {
      return this;
    }
    Row r = new Row(values);
    r.hash = hash;
    return r;
  }

  /** The canonical value at {@code i} (null for SQL NULL), whatever {@link #get} shows. */
  Object canonicalAt(int i) {
    return values[i];
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

  /** The values of {@code l} at {@code left} followed by those of {@code r} at {@code right} (a projecting join's pair). */
  static Row pick(Row l, int[] left, Row r, int[] right) {
    Object[] lv = l.values;
    Object[] rv = r.values;
    int n = left.length;
    Object[] out = new Object[n + right.length];
    for (int i = 0; i < n; i++) {
      out[i] = lv[left[i]];
    }
    for (int i = 0; i < right.length; i++) {
      out[n + i] = rv[right[i]];
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

  /** A copy with column {@code i} set to {@code v}, which is canonical already. */
  Row withCanonical(int i, Object v) {
    Object[] out = values.clone();
    out[i] = v;
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

  /** The values as {@link #get} returns them. */
  public List<Object> toList() {
    return Arrays.asList(shown.clone());
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
    if (!(o instanceof Row r)) {
      return false;
    }
    // hashes reject fast when both are known; a row's first comparison does not compute its hash
    int h = hash;
    int rh = r.hash;
    return (h == 0 || rh == 0 || h == rh) && Arrays.equals(values, r.values);
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
