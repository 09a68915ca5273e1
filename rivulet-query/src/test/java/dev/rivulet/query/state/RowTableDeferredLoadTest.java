package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link RowTable#putLoad} with the {@link DenseKeySet} a loading batch fills block by block: a
 * large first load of distinct integer ids in a dense range leaves the slot table for the first
 * keyed call (the fast path: {@link RowTable#deferred} says so); in a load that breaks that at
 * some row (a repeated key, a key beyond 32 bits, a string key, keys spread too wide) the set
 * refuses that row (exactly the odd one, where there is one) and the load goes in as {@link
 * RowTable#putRows} puts it. Either way the table agrees with a map (a later row of a key wins, in
 * the place of the first) right after the load, in the rows' order, and through random keyed calls
 * after it.
 */
class RowTableDeferredLoadTest {
  private static final int KINDS = 8;

  @Test
  void deferredAndFallenBackLoadsAgreeWithAMapThroughKeyedCalls() {
    int deferred = 0;
    for (long seed : Seeds.runs(24)) {
      Random rnd = new Random(seed);
      int kind = (int) Math.floorMod(seed, KINDS);
      int n = RowTable.DEFER_AT + rnd.nextInt(12_000);
      int turn = 1 + rnd.nextInt(n - 1);
      long base = rnd.nextBoolean() ? 1 : (long) rnd.nextInt() / 2; // negative too
      Row[] load = new Row[n];
      for (int i = 0; i < n; i++) {
        load[i] = Row.of(key(kind, i, n, turn, base, rnd), (long) rnd.nextInt(50), "r" + i);
      }
      if (kind == 1) {
        shuffle(load, rnd);
      }
      Map<Object, Row> model = new LinkedHashMap<>();
      for (Row r : load) {
        model.put(r.get(0), r);
      }
      RowTable table = new RowTable(new int[] {0});
      int chunk = new int[] {4096, 1000, 7}[rnd.nextInt(3)];
      String as = "seed " + seed + " (" + Seeds.replayHint(seed) + ") kind " + kind + " turn " + turn + " chunk " + chunk;
      DenseKeySet keys = new DenseKeySet();
      int taken = addAsABatchDoes(keys, load, 1 + rnd.nextInt(100));
      boolean fits = kind <= 2;
      assertThat(taken).as(as + ": rows the key set took").isEqualTo(fits ? n : kind == 6 ? taken : turn);
      assertThat(taken < n).as(as).isEqualTo(!fits);
      table.putLoad(chunks(load, chunk), chunk, n, taken == n ? keys : null);
      assertThat(table.deferred()).as(as).isEqualTo(fits);
      deferred += fits ? 1 : 0;
      assertThat(table.toArray()).as(as + ": rows in order").containsExactly(model.values().toArray(new Row[0]));
      keyedCalls(table, model, rnd, as);
      assertThat(table.deferred()).as(as).isFalse();
    }
    assertThat(deferred).as("loads that took the fast path").isPositive();
  }

  /**
   * A second load into a table still waiting for its slot table builds it first, then puts its
   * rows (one repeating keys of the first load replaces those rows).
   */
  @Test
  void aSecondLoadBuildsTheSlotTableFirst() {
    for (boolean repeat : new boolean[] {false, true}) {
      RowTable table = new RowTable(new int[] {0});
      Map<Object, Row> model = new LinkedHashMap<>();
      Row[] first = ids(0, 5_000);
      Row[] second = ids(repeat ? 4_990 : 5_000, 3_000);
      table.putLoad(chunks(first, 4096), 4096, first.length, keysOf(first));
      assertThat(table.deferred()).isTrue();
      table.putLoad(chunks(second, 4096), 4096, second.length, keysOf(second));
      assertThat(table.deferred()).as("a second load builds the slot table").isFalse();
      for (Row r : first) {
        model.put(r.get(0), r);
      }
      for (Row r : second) {
        model.put(r.get(0), r);
      }
      assertThat(table.toArray()).containsExactly(model.values().toArray(new Row[0]));
      keyedCalls(table, model, new Random(repeat ? 2 : 1), "repeat " + repeat);
    }
  }

  /**
   * A small load, one into a table that holds keyed rows already, and one whose key set does not
   * hold every row's key build the slot table at once.
   */
  @Test
  void smallLaterOrPartlyKeyedLoadsBuildTheSlotTable() {
    RowTable small = new RowTable(new int[] {0});
    Row[] few = ids(0, RowTable.DEFER_AT - 1);
    small.putLoad(chunks(few, 4096), 4096, few.length, keysOf(few));
    assertThat(small.deferred()).isFalse();
    RowTable later = new RowTable(new int[] {0});
    later.putRow(Row.of(-1L, 0L, "first"));
    Row[] many = ids(0, 2 * RowTable.DEFER_AT);
    later.putLoad(chunks(many, 4096), 4096, many.length, keysOf(many));
    assertThat(later.deferred()).isFalse();
    assertThat(later.size()).isEqualTo(many.length + 1);
    assertThat(later.getRow(many[many.length - 1])).isSameAs(many[many.length - 1]);
    RowTable partly = new RowTable(new int[] {0});
    partly.putLoad(chunks(many, 4096), 4096, many.length, keysOf(Arrays.copyOf(many, many.length - 1)));
    assertThat(partly.deferred()).isFalse();
    assertThat(partly.getRow(many[many.length - 1])).isSameAs(many[many.length - 1]);
  }

  /**
   * Adds the keys of {@code load}, the first {@code block} rows at once, then one by one, as a
   * loading batch does; returns how many it took.
   */
  private static int addAsABatchDoes(DenseKeySet keys, Row[] load, int block) {
    int first = Math.min(load.length, block);
    int stop = keys.addAll(load, 0, first, 0);
    for (int i = first; stop == i && i < load.length; i++) {
      stop += keys.add(load[i].get(0)) ? 1 : 0;
    }
    return stop;
  }

  private static DenseKeySet keysOf(Row[] rows) {
    DenseKeySet keys = new DenseKeySet();
    assertThat(addAsABatchDoes(keys, rows, 64)).isEqualTo(rows.length);
    return keys;
  }

  /** The key of row {@code i} of a load of {@code kind}; the odd key comes at row {@code turn}. */
  private static Object key(int kind, int i, int n, int turn, long base, Random rnd) {
    return switch (kind) {
      case 0, 1 -> base + i; // ids, in order or shuffled
      case 2 -> base + n - i; // descending
      case 3 -> i == turn ? base + 1 + rnd.nextInt(i) : base + i + 1; // a repeat of an earlier row's
      case 4 -> i == turn ? 5_000_000_000L : base + i; // beyond 32 bits
      case 5 -> i == turn ? "k" + i : base + i; // not an integer
      case 6 -> base + 1000L * i; // spread too wide
      default -> i >= turn ? Integer.MAX_VALUE - (long) (n - i) : (long) i; // a gap across most of the int range
    };
  }

  /** Random keyed calls (lookups, puts, removals, the keys), each checked against {@code model}. */
  private static void keyedCalls(RowTable table, Map<Object, Row> model, Random rnd, String as) {
    List<Object> keys = new ArrayList<>(model.keySet());
    Set<Object> known = new HashSet<>(keys);
    for (int op = 0; op < 3_000; op++) {
      Object k = keys.get(rnd.nextInt(keys.size()));
      if (rnd.nextInt(5) == 0 && k instanceof Long l) {
        k = l + 1 + rnd.nextInt(3); // maybe absent
      }
      Row row = Row.of(k, (long) op, "op" + op);
      switch (rnd.nextInt(6)) {
        case 0 -> assertThat(table.get(Row.of(k))).as(as + " get " + k).isSameAs(model.get(k));
        case 1 -> assertThat(table.getRow(row)).as(as + " getRow " + k).isSameAs(model.get(k));
        case 2 -> assertThat(table.putRow(row)).as(as + " putRow " + k).isSameAs(model.put(k, row));
        case 3 -> assertThat(table.put(Row.of(k), row)).as(as + " put " + k).isSameAs(model.put(k, row));
        case 4 -> assertThat(table.removeRow(row)).as(as + " removeRow " + k).isSameAs(model.remove(k));
        default -> assertThat(table.remove(Row.of(k))).as(as + " remove " + k).isSameAs(model.remove(k));
      }
      if (known.add(k)) {
        keys.add(k);
      }
    }
    assertThat(table.size()).as(as).isEqualTo(model.size());
    Comparator<Row> byKey = Comparator.comparing(r -> String.valueOf(r.get(0)));
    Row[] rows = table.toArray();
    Arrays.sort(rows, byKey);
    assertThat(rows).as(as + ": rows after keyed calls")
        .containsExactly(model.values().stream().sorted(byKey).toArray(Row[]::new));
    assertThat(table.keys()).as(as).hasSize(model.size());
  }

  private static Row[] ids(long from, int n) {
    Row[] out = new Row[n];
    for (int i = 0; i < n; i++) {
      out[i] = Row.of(from + i, (long) i, "id" + (from + i));
    }
    return out;
  }

  private static Row[][] chunks(Row[] rows, int chunk) {
    Row[][] out = new Row[(rows.length + chunk - 1) / chunk][];
    for (int c = 0; c < out.length; c++) {
      out[c] = Arrays.copyOfRange(rows, c * chunk, Math.min(rows.length, (c + 1) * chunk));
    }
    return out;
  }

  private static void shuffle(Row[] rows, Random rnd) {
    for (int i = rows.length - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      Row t = rows[i];
      rows[i] = rows[j];
      rows[j] = t;
    }
  }
}
