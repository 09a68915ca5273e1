package dev.rivulet.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Group-by with aggregates: one output row per group of equal key columns, holding the keys and
 * each {@link Aggregate} over the group's rows. A group exists while it has rows; with no key
 * columns there is exactly one group, which exists even over no input (SQL's global aggregate).
 * Incrementally, each changed group retracts its previous row and emits its new one, unless they
 * are equal. Retains per group a row count and one {@link Accumulator} per aggregate; min and max
 * keep the group's values in order, so a retraction costs O(log g), not a rescan of the group.
 */
final class AggregateOperator extends Operator {
  private final int[] keys;
  private final List<Aggregate> aggregates;
  private final int[] inColumns;
  private final ColumnType[] inTypes;
  private final HashMap<Row, Group> groups = new HashMap<>();

  /** State of one group. */
  private final class Group {
    final Row key;
    final Accumulator[] accs = new Accumulator[aggregates.size()];
    long rows;
    Row current; // the row last emitted, or null
    boolean touched;

    Group(Row key) {
      this.key = key;
      for (int i = 0; i < accs.length; i++) {
        accs[i] = Accumulator.create(aggregates.get(i), inTypes[i]);
      }
    }

    Row compute() {
      if (rows == 0 && keys.length > 0) {
        return null;
      }
      Object[] out = new Object[keys.length + accs.length];
      for (int i = 0; i < keys.length; i++) {
        out[i] = key.get(i);
      }
      for (int i = 0; i < accs.length; i++) {
        out[keys.length + i] = aggregates.get(i).kind() == Aggregate.Kind.COUNT_ROWS ? (Object) rows : accs[i].result();
      }
      return Row.wrap(out);
    }
  }

  /** A new {@code AggregateOperator} as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it). */
  static Operator of(Operator in, int[] keys, List<Aggregate> aggregates, int[] inColumns, Schema out) {
    return new AggregateOperator(in, keys, aggregates, inColumns, out);
  }

  AggregateOperator(Operator in, int[] keys, List<Aggregate> aggregates, int[] inColumns, Schema out) {
    super("group-by", out, in);
    this.keys = keys;
    this.aggregates = aggregates;
    this.inColumns = inColumns;
    this.inTypes = new ColumnType[inColumns.length];
    for (int i = 0; i < inColumns.length; i++) {
      inTypes[i] = inColumns[i] < 0 ? ColumnType.INT : in.schema.column(inColumns[i]).type();
    }
  }

  @Override
  void start() {
    if (keys.length == 0) {
      Group g = new Group(Row.nulls(0));
      groups.put(g.key, g);
      g.current = g.compute();
      emit(g.current, 1);
    }
  }

  @Override
  void step() {
    Delta in = inputs[0].consolidateIfRetracting();
    examined += in.size;
    List<Group> touched = new ArrayList<>(2);
    for (int i = 0; i < in.size; i++) {
      Row row = in.rows[i];
      long w = in.weights[i];
      Row key = row.project(keys);
      Group g = groups.get(key);
      if (g == null) {
        g = new Group(key);
        groups.put(key, g);
      }
      if (!g.touched) {
        g.touched = true;
        touched.add(g);
      }
      g.rows += w;
      if (g.rows < 0) {
        throw new InvariantViolation(name + ": group " + key + " would have " + g.rows + " rows after " + row);
      }
      for (int a = 0; a < g.accs.length; a++) {
        int c = inColumns[a];
        if (c < 0) {
          continue;
        }
        Object v = row.get(c);
        if (v != null) {
          g.accs[a].add(v, w);
        }
      }
    }
    for (Group g : touched) {
      g.touched = false;
      Row next = g.compute();
      if (next == null) {
        groups.remove(g.key);
      }
      if (next != null && next.equals(g.current)) {
        continue;
      }
      if (g.current != null) {
        emit(g.current, -1);
      }
      if (next != null) {
        emit(next, 1);
      }
      g.current = next;
    }
  }

  @Override
  long retained() {
    long n = 0;
    for (Group g : groups.values()) {
      n++;
      for (Accumulator a : g.accs) {
        n += a.retained();
      }
    }
    return n;
  }
}
