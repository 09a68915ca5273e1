package dev.rivulet.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ordered, named and typed columns of the rows on a stream. Immutable.
 *
 * <p>Column names are unique within a schema. Lookups by an unknown name fail with a {@link
 * SchemaException} that names the column and lists the known ones.
 */
public final class Schema {
  private final List<Column> columns;
  private final Map<String, Integer> byName;
  // Flat copies for check(), which runs on every row that enters the engine.
  private final ColumnType[] types;
  private final boolean[] nullable;
  private final byte[] usual; // per column: the final class that fits it at once (one of the USUAL_ codes), or none
  private static final byte USUAL_NONE = 0; // accepts() decides
  private static final byte USUAL_LONG = 1;
  private static final byte USUAL_STRING = 2;
  private static final byte USUAL_DOUBLE = 3;
  private static final byte USUAL_BOOLEAN = 4;
  // Columns whose values may be shown in another class than their canonical one (see present()).
  private final int[] presented;

  private Schema(List<Column> columns) {
    this.columns = List.copyOf(columns);
    this.types = new ColumnType[this.columns.size()];
    this.nullable = new boolean[this.columns.size()];
    this.usual = new byte[types.length];
    for (int i = 0; i < types.length; i++) {
      types[i] = this.columns.get(i).type();
      nullable[i] = this.columns.get(i).nullable();
      usual[i] = usualKind(types[i]);
    }
    int n = 0; // a loop, not a stream with a lambda: schemas are made on the way to a first query
    for (ColumnType t : types) {
      n += t.presentsDifferently() ? 1 : 0;
    }
    this.presented = new int[n];
    for (int i = 0, k = 0; i < types.length; i++) {
      if (types[i].presentsDifferently()) {
        presented[k++] = i;
      }
    }
    this.byName = new HashMap<>();
    for (int i = 0; i < this.columns.size(); i++) {
      if (byName.put(this.columns.get(i).name(), i) != null) {
        throw new SchemaException("duplicate column '" + this.columns.get(i).name() + "' in " + this);
      }
    }
  }

  public static Schema of(Column... columns) {
    return new Schema(List.of(columns));
  }

  public static Schema of(List<Column> columns) {
    return new Schema(columns);
  }

  /**
   * Shorthand: {@code Schema.parse("id INT NOT NULL, title STRING")}. Each comma-separated column
   * is {@code name TYPE} optionally followed by {@code NOT NULL} (or {@code NULL}, the default);
   * types and constraints are case-insensitive. Type names are those of {@link ColumnType}, in any
   * case; {@code BOOLEAN} is accepted for {@code BOOL}.
   *
   * @throws SchemaException naming the column spec and the problem, and listing the accepted
   *     types or constraints: an empty spec, an unknown type, or anything else after the type (a
   *     misspelled constraint such as {@code NOTNULL}, trailing text)
   */
  public static Schema parse(String spec) {
    List<Column> cols = new ArrayList<>();
    for (String part : spec.split(",", -1)) {
      String p = part.trim();
      String[] w = p.isEmpty() ? new String[0] : p.split("\\s+");
      if (w.length < 2) {
        throw new SchemaException("column spec '" + p + "' in '" + spec + "' needs a name and a type: "
            + SPEC_FORM);
      }
      ColumnType type = ColumnType.named(w[1]);
      if (type == null) {
        throw new SchemaException("unknown column type '" + w[1] + "' for column '" + w[0] + "'; the types are "
            + ColumnType.NAMES);
      }
      String rest = String.join(" ", java.util.Arrays.asList(w).subList(2, w.length)).toUpperCase(java.util.Locale.ROOT);
      boolean nullable;
      if (rest.isEmpty() || rest.equals("NULL")) {
        nullable = true;
      } else if (rest.equals("NOT NULL")) {
        nullable = false;
      } else {
        throw new SchemaException("column spec '" + p + "': unexpected '"
            + String.join(" ", java.util.Arrays.asList(w).subList(2, w.length)) + "' after the type; " + SPEC_FORM);
      }
      cols.add(new Column(w[0], type, nullable));
    }
    return new Schema(cols);
  }

  private static final String SPEC_FORM = "a column is 'name TYPE [NOT NULL | NULL]', with TYPE one of "
      + java.util.Arrays.toString(ColumnType.values()) + " and the only constraints NOT NULL and NULL";

  public int width() {
    return columns.size();
  }

  public List<Column> columns() {
    return columns;
  }

  public Column column(int i) {
    return columns.get(i);
  }

  public boolean has(String name) {
    return byName.containsKey(name);
  }

  /** Index of {@code name}; fails naming the column and the known columns. */
  public int indexOf(String name) {
    Integer i = byName.get(name);
    if (i == null) {
      throw new SchemaException("unknown column '" + name + "'; known columns: " + names());
    }
    return i;
  }

  public int[] indexesOf(List<String> names) {
    int[] out = new int[names.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = indexOf(names.get(i));
    }
    return out;
  }

  public List<String> names() {
    List<String> out = new ArrayList<>(columns.size());
    for (Column c : columns) {
      out.add(c.name());
    }
    return out;
  }

  /**
   * This schema followed by {@code other}; a repeated name gets {@code prefix} in front (and a
   * counter if that is taken too).
   */
  public Schema concat(Schema other, String prefix, boolean otherNullable) {
    List<Column> out = new ArrayList<>(columns);
    java.util.Set<String> taken = new java.util.HashSet<>(byName.keySet());
    for (Column c : other.columns) {
      Column col = otherNullable ? c.asNullable() : c;
      String name = col.name();
      if (taken.contains(name)) {
        name = prefix + col.name();
        for (int k = 2; taken.contains(name); k++) {
          name = prefix + col.name() + "_" + k;
        }
        col = new Column(name, col.type(), col.nullable());
      }
      taken.add(name);
      out.add(col);
    }
    return new Schema(out);
  }

  /** The same columns, all nullable. */
  public Schema nullable() {
    List<Column> out = new ArrayList<>(columns.size());
    for (Column c : columns) {
      out.add(c.asNullable());
    }
    return new Schema(out);
  }

  /**
   * {@code row} as users see it: each value in its column's Java class ({@link
   * ColumnType#present}), e.g. a DOUBLE column's 2 (canonical) as the {@code Double} 2.0, a
   * DECIMAL's as a {@code BigDecimal}. The typed row equals {@code row} (equality is canonical);
   * it is {@code row} itself when nothing needs converting, so a schema without numeric columns
   * costs nothing. {@code row} holds values of these columns (as checked by {@link #check}).
   */
  public Row present(Row row) {
    return presented.length == 0 ? row.canonical() : row.typedBy(types, presented);
  }

  /**
   * Checks that {@code row} fits: its width and each value's type and nullability.
   *
   * @throws SchemaException naming the column, the value and the expected type
   */
  public void check(Row row) {
    checked(row);
  }

  /**
   * {@link #check}s {@code row} and returns it canonical ({@link Row#canonical}): one call where a
   * load's rows, which a fresh JVM first checks interpreted, would make two.
   *
   * @throws SchemaException as {@link #check}
   */
  public Row checked(Row row) {
    Object[] values = row.values; // canonical
    if (values.length != types.length) {
      throw new SchemaException("row " + row.canonical() + " has " + values.length
          + " values but the schema has " + columns.size() + " columns: " + this);
    }
    for (int i = 0; i < types.length; i++) {
      Object v = values[i];
      if (v == null) {
        if (!nullable[i]) {
          throw mismatch(row.canonical(), i);
        }
        continue;
      }
      // The usual class settles most values (a load's rows, a projection's) by an instanceof and
      // no call: a load's first rows run interpreted, where getClass() would be a native call.
      boolean fits;
      switch (usual[i]) {
        case USUAL_LONG -> fits = v instanceof Long;
        case USUAL_STRING -> fits = v instanceof String;
        case USUAL_DOUBLE -> fits = v instanceof Double;
        case USUAL_BOOLEAN -> fits = v instanceof Boolean;
        default -> fits = false;
      }
      if (!fits && !types[i].accepts(v)) {
        throw mismatch(row.canonical(), i);
      }
    }
    return row.shown == values ? row : row.canonical();
  }

  /** The {@code USUAL_} code of the final class whose values {@code type} accepts without looking further. */
  private static byte usualKind(ColumnType type) {
    // an if-chain: an enum switch would be one more class to load (see ColumnType#accepts)
    if (type == ColumnType.INT) {
      return USUAL_LONG;
    } else if (type == ColumnType.DOUBLE) {
      return USUAL_DOUBLE;
    } else if (type == ColumnType.STRING) {
      return USUAL_STRING;
    } else if (type == ColumnType.BOOL) {
      return USUAL_BOOLEAN;
    }
    return USUAL_NONE; // the others: accepts() decides
  }

  private SchemaException mismatch(Row row, int i) {
    Object v = row.get(i);
    Column c = columns.get(i);
    if (v == null) {
      return new SchemaException("column '" + c.name() + "' is NOT NULL but row " + row + " has NULL");
    }
    String why = c.type() == ColumnType.DOUBLE && v instanceof Long ? ", which no double holds exactly" : "";
    return new SchemaException("column '" + c.name() + "' expects " + c.type() + " but row " + row
        + " has " + Values.render(v) + " (" + ColumnType.of(v) + why + ")");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Schema s && s.columns.equals(columns);
  }

  @Override
  public int hashCode() {
    return columns.hashCode();
  }

  @Override
  public String toString() {
    return "(" + String.join(", ", columns.stream().map(Column::toString).toList()) + ")";
  }
}
