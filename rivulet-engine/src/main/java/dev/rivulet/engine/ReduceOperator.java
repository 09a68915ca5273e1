package dev.rivulet.engine;

import dev.rivulet.engine.state.Bag;
import dev.rivulet.engine.state.KeyedBags;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keyed reduction with a user function: the output is {@code sum over keys k of f(k, A_k)}, where
 * {@code A_k} is the multiset of input rows with key k (no output for an empty group). Only the
 * groups changed in a run are reduced again, and the difference between the group's previous and
 * new output is emitted. Retains the input rows indexed by key and each group's last output.
 */
final class ReduceOperator extends Operator {
  private final int[] keys;
  private final Reducer reducer;
  private final KeyedBags<Row, Row> groups = new KeyedBags<>();
  private final HashMap<Row, ZSet> outputs = new HashMap<>();
  private Row[] keyBuffer = new Row[4]; // the run's group keys, per input entry
  /** Runs whose changes were all of one group, reduced without a set of touched keys (for tests). */
  long oneKeyRuns;

  /** A new {@code ReduceOperator} as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it). */
  static Operator of(Operator in, int[] keys, Schema out, Reducer reducer) {
    return new ReduceOperator(in, keys, out, reducer);
  }

  ReduceOperator(Operator in, int[] keys, Schema out, Reducer reducer) {
    super("reduce", out, in);
    this.keys = keys;
    this.reducer = reducer;
  }

  @Override
  void step() {
    Delta in = inputs[0].consolidate();
    examined += in.size;
    if (keyBuffer.length < in.size) {
      keyBuffer = new Row[Math.max(in.size, keyBuffer.length * 2)];
    }
    boolean oneKey = true;
    for (int i = 0; i < in.size; i++) {
      // A row of the first row's group shares its key row: one projection for a one-group run.
      boolean first = i == 0 || sameKey(in.rows[i], in.rows[0]);
      Row key = i > 0 && first ? keyBuffer[0] : in.rows[i].project(keys);
      keyBuffer[i] = key;
      oneKey &= first;
      long w = groups.add(key, in.rows[i], in.weights[i]);
      if (w < 0) {
        throw new InvariantViolation(name + ": multiplicity of " + in.rows[i] + " would become " + w);
      }
    }
    if (oneKey) {
      // One group changed (a single-row update): no set of touched keys is made.
      oneKeyRuns++;
      reduceGroup(keyBuffer[0]);
    } else {
      Map<Row, Boolean> touched = new LinkedHashMap<>();
      for (int i = 0; i < in.size; i++) {
        touched.put(keyBuffer[i], Boolean.TRUE);
      }
      for (Row key : touched.keySet()) {
        reduceGroup(key);
      }
    }
    java.util.Arrays.fill(keyBuffer, 0, in.size, null);
  }

  /** Whether rows {@code a} and {@code b} have equal key values (as their projected key rows would be equal). */
  private boolean sameKey(Row a, Row b) {
    for (int k : keys) {
      if (!java.util.Objects.equals(a.canonicalAt(k), b.canonicalAt(k))) {
        return false;
      }
    }
    return true;
  }

  /** Reduces group {@code key} again and emits the difference from its previous output. */
  private void reduceGroup(Row key) {
    ZSet before = outputs.getOrDefault(key, ZSet.empty());
    Bag<Row> bag = groups.get(key);
    ZSet after = ZSet.empty();
    if (bag != null) {
      int n = bag.size();
      Row[] rows = new Row[n];
      long[] weights = new long[n];
      for (int i = 0; i < n; i++) {
        rows[i] = bag.value(i);
        weights[i] = bag.weight(i);
      }
      examined += n;
      after = check(reducer.reduce(key, ZSet.fromArrays(rows, weights, null), before));
    }
    if (after.isEmpty()) {
      outputs.remove(key);
    } else {
      outputs.put(key, after);
    }
    for (int i = 0; i < before.size(); i++) {
      emit(before.row(i), -before.weight(i));
    }
    for (int i = 0; i < after.size(); i++) {
      emit(after.row(i), after.weight(i));
    }
  }

  private ZSet check(ZSet out) {
    ZSet c = out.size() == 1 && out.weight(0) != 0 ? out : out.consolidate(); // one entry: nothing to sum
    for (int i = 0; i < c.size(); i++) {
      if (c.weight(i) <= 0) {
        throw new InvariantViolation(name + ": the reducer returned " + c.row(i) + " with multiplicity " + c.weight(i));
      }
      try {
        schema.check(c.row(i));
      } catch (SchemaException e) {
        throw new SchemaException(name + ": " + e.getMessage());
      }
    }
    return c;
  }

  @Override
  long retained() {
    long n = groups.entries();
    for (ZSet z : outputs.values()) {
      n += z.size();
    }
    return n;
  }
}
