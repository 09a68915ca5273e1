package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The semi-join's left index holds, per key, exactly the rows added and not removed, in each of
 * its forms and across the switches between them: ids in a narrow range (dense), integers too far
 * apart for a dense range (primitive), and other keys (object), checked against a plain map after
 * every operation of random histories. Seeds: {@code -Drivulet.seed} replays one, {@code
 * -Drivulet.runs} multiplies the runs.
 */
class SemiJoinIndexTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x1DE8L);
  private static final int RUNS = 20 * Integer.getInteger("rivulet.runs", 1);

  @Test
  void aRemovalTakesTheStoredRowItselfFirstThenAnEqualCopy() {
    SemiJoinIndex index = new SemiJoinIndex();
    Row first = Row.of(7L, "a");
    Row second = Row.of(7L, "a"); // equal, another object
    Row other = Row.of(7L, "b");
    index.add(7L, first);
    index.add(7L, other);
    index.add(7L, second); // the chain's head
    assertThat(index.remove(7L, first)).isTrue();
    List<Row> left = chain(index, 7L);
    assertThat(left).hasSize(2);
    assertThat(left.stream().anyMatch(r -> r == second)).isTrue(); // the head was equal, but not the row removed
    assertThat(left.stream().noneMatch(r -> r == first)).isTrue();
    assertThat(index.remove(7L, Row.of(7L, "a"))).isTrue(); // an equal copy finds the equal row
    assertThat(chain(index, 7L)).containsExactly(other);
    assertThat(index.remove(7L, Row.of(7L, "a"))).isFalse();
    assertThat(index.remove(8L, other)).isFalse();
    assertThat(index.size()).isEqualTo(1);
  }

  @Test
  void idsStayDenseWideIntegersAreHashedAndOtherKeysAreObjects() {
    SemiJoinIndex dense = new SemiJoinIndex();
    for (long k = 500; k > 0; k -= 7) {
      dense.add(k, Row.of(k));
    }
    assertThat(dense.form()).isEqualTo("DENSE");
    dense.add(1L << 40, Row.of(0));
    assertThat(dense.form()).isEqualTo("PRIMITIVE");
    assertThat(chain(dense, 493L)).containsExactly(Row.of(493));
    dense.add("x", Row.of(1));
    assertThat(dense.form()).isEqualTo("OBJECT");
    assertThat(chain(dense, 1L << 40)).containsExactly(Row.of(0));
    assertThat(chain(dense, "x")).containsExactly(Row.of(1));
    assertThat(chain(dense, 500L)).containsExactly(Row.of(500));
  }

  @Test
  void randomHistoriesAgreeWithAMap() {
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + run;
      Random rnd = new Random(seed);
      SemiJoinIndex index = new SemiJoinIndex();
      Map<Object, List<Row>> model = new HashMap<>();
      int kind = run % 4; // 0: ids, 1: ids then wide, 2: ids then strings, 3: negative and positive ids
      for (int op = 0; op < 3000; op++) {
        Object key = key(rnd, kind, op);
        List<Row> rows = model.computeIfAbsent(key, k -> new ArrayList<>());
        if (!rows.isEmpty() && rnd.nextInt(3) == 0) {
          Row gone = rows.remove(rnd.nextInt(rows.size()));
          assertThat(index.remove(key, gone)).as("seed %d op %d", seed, op).isTrue();
        } else {
          Row row = Row.of(key, rnd.nextInt(5), "v" + rnd.nextInt(3)); // the key is the row's, as in a semi-join
          rows.add(row);
          index.add(key, row);
        }
        if (op % 97 == 0 || op == 2999) {
          int total = 0;
          for (Map.Entry<Object, List<Row>> e : model.entrySet()) {
            assertThat(chain(index, e.getKey())).as("seed %d op %d key %s", seed, op, e.getKey())
                .containsExactlyInAnyOrderElementsOf(e.getValue());
            total += e.getValue().size();
          }
          assertThat(index.size()).isEqualTo(total);
          assertThat(index.remove(-12345L, Row.of(-12345L, 0, "v0"))).isFalse();
        }
      }
    }
  }

  @Test
  void aLongChainIsIndexedByItsFirstLongRemovalThenRemovesByRowAcrossRebuilds() {
    SemiJoinIndex index = new SemiJoinIndex();
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      Row r = Row.of(7L, "c" + i % 40); // equal rows in one chain
      rows.add(r);
      index.add(7L, r);
    }
    index.add(8L, Row.of(8L, "other"));
    assertThat(index.indexed(7L)).isFalse();
    // the chain starts at the last row added: a short walk keeps it plain
    assertThat(index.remove(7L, rows.remove(rows.size() - 1 - SemiJoinIndex.INDEX_AT / 2))).isTrue();
    assertThat(index.indexed(7L)).isFalse();
    assertThat(index.remove(7L, rows.remove(0))).isTrue(); // the chain's last entry: the walk passes INDEX_AT
    assertThat(index.indexed(7L)).isTrue();
    assertThat(index.indexed(8L)).isFalse();
    assertThat(chain(index, 7L)).containsExactlyInAnyOrderElementsOf(rows);
    assertThat(index.remove(7L, rows.remove(50))).isTrue(); // by identity
    Row copy = Row.of(7L, rows.get(10).get(1));
    assertThat(index.remove(7L, copy)).isTrue(); // an equal copy
    rows.remove(10);
    assertThat(index.remove(7L, Row.of(7L, "none"))).isFalse();
    Row added = Row.of(7L, "late");
    index.add(7L, added);
    rows.add(added);
    assertThat(chain(index, 7L)).containsExactlyInAnyOrderElementsOf(rows);
    index.add(1L << 40, Row.of(1L << 40)); // the primitive form: the mark moves with the key
    assertThat(index.form()).isEqualTo("PRIMITIVE");
    assertThat(index.indexed(7L)).isTrue();
    assertThat(index.remove(7L, added)).isTrue();
    rows.remove(added);
    index.add("k", Row.of("k")); // the object form
    assertThat(index.form()).isEqualTo("OBJECT");
    assertThat(index.indexed(7L)).isTrue();
    assertThat(chain(index, 7L)).containsExactlyInAnyOrderElementsOf(rows);
    while (!rows.isEmpty()) {
      assertThat(index.remove(7L, rows.remove(rows.size() / 2))).isTrue();
    }
    assertThat(chain(index, 7L)).isEmpty();
    assertThat(index.size()).isEqualTo(3);
    index.add(7L, Row.of(7L, "again"));
    assertThat(chain(index, 7L)).containsExactly(Row.of(7L, "again"));
  }

  @Test
  void indexedChainsAgreeWithPlainOnesOverRandomHistoriesOfLongChains() {
    int indexedRuns = 0;
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + 31 * run;
      Random rnd = new Random(seed);
      SemiJoinIndex fast = new SemiJoinIndex();
      SemiJoinIndex plain = new SemiJoinIndex(Integer.MAX_VALUE); // never indexed: the general path
      Map<Object, List<Row>> model = new HashMap<>();
      int kind = run % 4;
      for (int op = 0; op < 4000; op++) {
        Object key = key(rnd, kind, op) instanceof Long l ? (Object) (l % 6) : "s" + rnd.nextInt(2); // few keys: long chains
        List<Row> rows = model.computeIfAbsent(key, k -> new ArrayList<>());
        if (!rows.isEmpty() && rnd.nextInt(5) < 2) {
          Row gone = rows.remove(rnd.nextInt(rows.size()));
          Row given = rnd.nextBoolean() ? gone : Row.of(gone.get(0), gone.get(1), gone.get(2)); // the stored row, or an equal copy
          assertThat(fast.remove(key, given)).as("seed %d op %d", seed, op).isTrue();
          assertThat(plain.remove(key, given)).isTrue();
        } else if (rnd.nextInt(20) == 0) {
          Row absent = Row.of(key, 99, "absent");
          assertThat(fast.remove(key, absent)).isFalse();
          assertThat(plain.remove(key, absent)).isFalse();
        } else {
          Row row = Row.of(key, rnd.nextInt(5), "v" + rnd.nextInt(3));
          rows.add(row);
          fast.add(key, row);
          plain.add(key, row);
        }
        if (op % 53 == 0 || op == 3999) {
          for (Map.Entry<Object, List<Row>> e : model.entrySet()) {
            assertThat(chain(fast, e.getKey())).as("seed %d op %d key %s", seed, op, e.getKey())
                .containsExactlyInAnyOrderElementsOf(e.getValue())
                .containsExactlyInAnyOrderElementsOf(chain(plain, e.getKey()));
          }
          assertThat(fast.size()).isLessThanOrEqualTo(plain.size()); // an indexed chain holds a row in one entry
        }
      }
      boolean any = false;
      for (Object k : model.keySet()) {
        any |= fast.indexed(k);
        assertThat(plain.indexed(k)).isFalse();
      }
      indexedRuns += any ? 1 : 0;
    }
    assertThat(indexedRuns).as("runs whose index indexed a key").isEqualTo(RUNS);
  }

  @Test
  void aWeightIsOneEntryAndARemovalOfMoreThanIsHeldChangesNothing() {
    SemiJoinIndex index = new SemiJoinIndex();
    Row row = Row.of(7L, "a");
    index.add(7L, row, 1_000_000_000_000L); // one entry: no loop over the units
    index.add(7L, Row.of(7L, "a"), 2); // an equal row added later: a second entry
    assertThat(index.size()).isEqualTo(2);
    assertThat(weights(index, 7L)).containsOnly(Map.entry(row, 1_000_000_000_002L));
    assertThat(index.remove(7L, row, 1_000_000_000_003L)).isFalse();
    assertThat(weights(index, 7L)).containsOnly(Map.entry(row, 1_000_000_000_002L));
    assertThat(index.remove(7L, Row.of(7L, "a"), 1_000_000_000_001L)).isTrue(); // across both entries
    assertThat(weights(index, 7L)).containsOnly(Map.entry(row, 1L));
    assertThat(index.size()).isEqualTo(1);
    assertThat(index.remove(7L, row, 1)).isTrue();
    assertThat(index.size()).isZero();
    assertThat(index.head(7L)).isEqualTo(SemiJoinIndex.END);
  }

  @Test
  void randomWeightedHistoriesAgreeWithAMap() {
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + 1000 + run;
      Random rnd = new Random(seed);
      int[] indexAts = {0, 4, SemiJoinIndex.INDEX_AT, Integer.MAX_VALUE}; // at once, early, as built, never
      SemiJoinIndex index = new SemiJoinIndex(indexAts[run % indexAts.length]);
      Map<Object, Map<Row, Long>> model = new HashMap<>();
      for (int op = 0; op < 3000; op++) {
        Object key = key(rnd, run % 4, op);
        Map<Row, Long> rows = model.computeIfAbsent(key, k -> new HashMap<>());
        // few rows per key (the key a function of the row, as a semi-join's is): each added again and again
        Row row = Row.of(String.valueOf(key), rnd.nextInt(4), "v" + rnd.nextInt(2));
        long held = rows.getOrDefault(row, 0L);
        if (held > 0 && rnd.nextInt(3) == 0) {
          long w = 1 + rnd.nextInt((int) Math.min(held + 2, 1000)); // now and then more than is held
          boolean ok = index.remove(key, rnd.nextBoolean() ? row : Row.of(row.get(0), row.get(1), row.get(2)), w);
          assertThat(ok).as("seed %d op %d", seed, op).isEqualTo(w <= held);
          if (ok) {
            rows.merge(row, -w, Long::sum);
            rows.remove(row, 0L);
          }
        } else {
          long w = 1 + rnd.nextInt(rnd.nextBoolean() ? 3 : 1_000_000);
          index.add(key, row, w);
          rows.merge(row, w, Long::sum);
        }
        if (op % 89 == 0 || op == 2999) {
          for (Map.Entry<Object, Map<Row, Long>> e : model.entrySet()) {
            assertThat(weights(index, e.getKey())).as("seed %d op %d key %s", seed, op, e.getKey())
                .isEqualTo(e.getValue());
          }
        }
      }
      if (indexAts[run % indexAts.length] <= 4) { // chains here are short: only an early threshold is reached
        assertThat(model.keySet().stream().anyMatch(index::indexed)).as("seed %d: some chain was indexed", seed).isTrue();
      }
    }
  }

  private static Map<Row, Long> weights(SemiJoinIndex index, Object key) {
    Map<Row, Long> out = new HashMap<>();
    for (int e = index.head(key); e != SemiJoinIndex.END; e = index.next(e)) {
      assertThat(index.weight(e)).isPositive();
      out.merge(index.row(e), index.weight(e), Long::sum);
    }
    return out;
  }

  private static Object key(Random rnd, int kind, int op) {
    boolean late = op > 1500;
    switch (kind) {
      case 1:
        return late && rnd.nextInt(5) == 0 ? (long) rnd.nextInt(40) * 1_000_000_007L : (long) rnd.nextInt(200);
      case 2:
        return late && rnd.nextInt(5) == 0 ? "s" + rnd.nextInt(30) : (long) rnd.nextInt(200);
      case 3:
        return (long) (rnd.nextInt(400) - 200);
      default:
        return (long) rnd.nextInt(200);
    }
  }

  /** The rows under {@code key}, each as many times as its entries weigh. */
  private static List<Row> chain(SemiJoinIndex index, Object key) {
    List<Row> out = new ArrayList<>();
    for (int e = index.head(key); e != SemiJoinIndex.END; e = index.next(e)) {
      for (long k = index.weight(e); k > 0; k--) {
        out.add(index.row(e));
      }
    }
    return out;
  }
}
