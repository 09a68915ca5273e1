package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Graph;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.compile.QueryPlans;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The random schema of one oracle scenario: two to four collections {@code t0..t3}, each with an
 * {@code id INT NOT NULL} key and two to four nullable columns of INT, STRING, DOUBLE or BOOL (at
 * least one INT, so joins always find a partner), over small value domains full of duplicates and
 * NULLs, so that joins match, groups fill up and orders tie. Keys are 1..9, or 1..40 in one world
 * of five (longer tables, larger windows and batches). One row in eight is NULL in every
 * non-key column. In one world of four the text also has characters beyond U+FFFF and in
 * U+E000..U+FFFF ({@link RandomScalars#UNICODE_STRINGS}), whose UTF-16 order differs from their
 * code-point order; H2 orders and measures UTF-16 units, so such a world is checked against the
 * naive evaluator and SQLite only.
 */
final class OracleWorld {
  /** A collection of the world, as queries see it before binding (see {@link QueryIrs#bind}). */
  record Table(String name, Schema schema, List<String> keyColumns) implements Source {}

  /**
   * A live query read by another one, as queries see it before binding: its schema is the visible
   * columns followed by one hidden {@code __key} column per key column, as {@link LiveQuery}'s.
   */
  record LiveRef(String name, Schema schema, List<String> keyColumns) implements Source {
    static LiveRef of(String name, QueryIR ir) {
      Schema visible = Shapes.of(ir);
      int keys = QueryPlans.plan(ir, Graph.builder()).result().keys().length;
      List<Column> cols = new ArrayList<>(visible.columns());
      List<String> keyCols = new ArrayList<>();
      for (int i = 0; i < keys; i++) {
        cols.add(Column.of("__key" + i, ColumnType.ANY));
        keyCols.add("__key" + i);
      }
      return new LiveRef(name, Schema.of(cols), keyCols);
    }
  }

  /** Keys are drawn from 1..MAX_ID, or from 1..LARGE_MAX_ID in a large world. */
  static final int MAX_ID = 9;
  static final int LARGE_MAX_ID = 40;
  private static final ColumnType[] TYPES = {ColumnType.INT, ColumnType.STRING, ColumnType.DOUBLE, ColumnType.BOOL};

  final List<Table> tables;
  /** Keys are 1..maxId. */
  final int maxId;
  /** Text beyond the Basic Multilingual Plane (and H2 left out). */
  final boolean unicode;

  OracleWorld(List<Table> tables, int maxId, boolean unicode) {
    this.tables = List.copyOf(tables);
    this.maxId = maxId;
    this.unicode = unicode;
  }

  static OracleWorld random(Random r) {
    List<Table> tables = new ArrayList<>();
    for (int t = 2 + r.nextInt(3); t > 0; t--) {
      List<Column> cols = new ArrayList<>();
      cols.add(Column.notNull("id", ColumnType.INT));
      int n = 2 + r.nextInt(3);
      int[] counts = new int[TYPES.length];
      for (int i = 0; i < n; i++) {
        ColumnType type = i == 0 ? ColumnType.INT : TYPES[r.nextInt(TYPES.length)];
        int k = java.util.Arrays.asList(TYPES).indexOf(type);
        counts[k]++;
        cols.add(Column.of(type.name().toLowerCase(java.util.Locale.ROOT).charAt(0) + Integer.toString(counts[k]), type));
      }
      java.util.Collections.shuffle(cols.subList(1, cols.size()), r);
      tables.add(new Table("t" + tables.size(), Schema.of(cols), List.of("id")));
    }
    int maxId = r.nextInt(5) == 0 ? LARGE_MAX_ID : MAX_ID;
    return new OracleWorld(tables, maxId, r.nextInt(4) == 0);
  }

  /** A random row of table {@code t} with key {@code id}. */
  Row row(int t, long id, Random r) {
    Schema s = tables.get(t).schema();
    Object[] v = new Object[s.width()];
    v[0] = id;
    boolean nulls = r.nextInt(8) == 0;
    for (int i = 1; i < v.length; i++) {
      v[i] = nulls || r.nextInt(6) == 0 ? null : value(s.column(i).type(), r);
    }
    return Row.of(v);
  }

  Object value(ColumnType t, Random r) {
    String[] strings = RandomScalars.strings(unicode);
    return switch (t) {
      case INT -> (long) (r.nextInt(7) - 1);
      case DOUBLE -> new double[] {0.5, 1.0, 2.25, -1.5, 3.0, 0.25, 2.0}[r.nextInt(7)];
      case STRING -> strings[r.nextInt(strings.length)];
      case BOOL -> r.nextBoolean();
      default -> throw new IllegalArgumentException(t.toString());
    };
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (Table t : tables) {
      sb.append(t.name()).append(t.schema()).append(' ');
    }
    return sb.append("(keys 1..").append(maxId).append(unicode ? "; text beyond U+FFFF" : "").append(')').toString();
  }
}
