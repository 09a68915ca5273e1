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

  ReduceOperator(Operator in, int[] keys, Schema out, Reducer reducer) {
    super("reduce", out, in);
    this.keys = keys;
    this.reducer = reducer;
  }

  @Override
  void step() {
    Delta in = inputs[0].consolidate();
    examined += in.size;
    Map<Row, Boolean> touched = new LinkedHashMap<>();
    for (int i = 0; i < in.size; i++) {
      Row key = in.rows[i].project(keys);
      touched.put(key, Boolean.TRUE);
      long w = groups.add(key, in.rows[i], in.weights[i]);
      if (w < 0) {
        throw new InvariantViolation(name + ": multiplicity of " + in.rows[i] + " would become " + w);
      }
    }
    for (Row key : touched.keySet()) {
      ZSet before = outputs.getOrDefault(key, ZSet.empty());
      Bag<Row> bag = groups.get(key);
      ZSet after = ZSet.empty();
      if (bag != null) {
        ZSet.Builder group = ZSet.builder();
        for (int i = 0; i < bag.size(); i++) {
          group.add(bag.value(i), bag.weight(i));
        }
        examined += bag.size();
        after = check(reducer.reduce(key, group.build()));
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
  }

  private ZSet check(ZSet out) {
    ZSet c = out.consolidate();
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
