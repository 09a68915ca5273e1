package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * {@link ValuePool}: a row whose values were shared equals, hashes and renders as a copy of it made
 * before (the general path, the row as written); repeated values end up as one instance per
 * distinct value (the fast path is taken); a column of values that never repeat is given up; a
 * value with nothing to share with stays; writers on several threads keep rows equal to their copies;
 * small integers go through their table indexed by value; rows shared in blocks a column at a time
 * (a load's path) end with the instances of rows shared one by one; it tells whether a column is
 * still replacing values (a later pass over a load would share some).
 */
class ValuePoolTest {
  private static final String[] WORDS = {"fix", "add", "drop", "move", "rename", "split", "merge", "test"};

  /** An issue-like row: unique id and created, a title from 8 x 97 strings, a foreign key of 3,000. */
  private static Row row(Random rnd, long id) {
    String title = WORDS[rnd.nextInt(WORDS.length)] + " in module " + rnd.nextInt(97); // a fresh String each time
    double score = rnd.nextInt(40) / 4.0 + 0.5; // non-integral: canonical Doubles
    return Row.of(id, title, 1_700_000_000L + 16 * id + rnd.nextInt(16), (long) rnd.nextInt(3_000), score,
        rnd.nextBoolean(), rnd.nextInt(5) == 0 ? null : "open");
  }

  @Test
  void itPredictsReplacingOnlyWhileAColumnReplacesValues() {
    ValuePool repeating = new ValuePool(2);
    ValuePool unique = new ValuePool(2);
    ValuePool shared = new ValuePool(2);
    assertThat(repeating.replacing()).as("nothing looked up yet").isFalse();
    for (long id = 0; id < 4_096; id++) {
      // column 0: small integers, the engine's shared instances; column 1: the title
      repeating.share(Row.of(id % 50, new String(("title " + id % 50).toCharArray())));
      unique.share(Row.of(id % 50, "title " + id));
      shared.share(Row.of(id % 50, WORDS[(int) (id % WORDS.length)]));
    }
    assertThat(repeating.replacing()).as("repeated titles in instances of their own").isTrue();
    assertThat(unique.pooling(1)).isFalse();
    assertThat(unique.replacing()).as("unique titles given up, the integers paused").isFalse();
    assertThat(shared.replacing()).as("titles that are shared instances already: paused").isFalse();
  }

  @Test
  void repeatedValuesAreSharedAndRowsStayEqual() {
    for (long seed : Seeds.runs(3)) {
      Random rnd = new Random(seed);
      ValuePool pool = new ValuePool(7);
      List<Row> shared = new ArrayList<>();
      for (long id = 0; id < 60_000; id++) {
        Row r = row(rnd, id);
        Row copy = Row.of(r.toList());
        pool.share(r);
        assertThat(r).as("seed %d (%s) id %d", seed, Seeds.replayHint(seed), id).isEqualTo(copy);
        assertThat(r.hashCode()).isEqualTo(copy.hashCode());
        assertThat(r.toList()).isEqualTo(copy.toList());
        assertThat(r.toString()).isEqualTo(copy.toString());
        assertThat(r.compareTo(copy)).isZero();
        shared.add(r);
      }
      assertThat(pool.pooling(0)).as("unique ids: given up").isFalse();
      assertThat(pool.pooling(2)).as("unique timestamps: given up").isFalse();
      assertThat(pool.pooling(1)).isTrue();
      assertThat(pool.pooling(3)).isTrue();
      List<Row> late = shared.subList(20_000, shared.size()); // once the caches have grown
      assertThat(instances(late, 1)).as("titles (776 distinct)").isLessThan(2_000);
      assertThat(instances(late, 3)).as("foreign keys (3,000 distinct)").isLessThan(4_000);
      assertThat(instances(late, 4)).as("scores (40 distinct)").isLessThanOrEqualTo(40);
      assertThat(instances(late, 5)).as("booleans").isLessThanOrEqualTo(2);
      assertThat(instances(late, 0)).as("ids stay the caller's").isEqualTo(late.size());
    }
  }

  @Test
  void rowsOfSmallIntsArriveSharedSoTheColumnPauses() {
    // Row.of makes one shared Long per integer in [0, 16384) (the engine's SharedLongs): the pool
    // finds nothing to replace in a window of them and stops looking them up for a while.
    ValuePool pool = new ValuePool(2);
    Random rnd = new Random(7);
    for (int i = 0; i < ValuePool.WINDOW + 1; i++) {
      Row r = Row.of(1_000_000 + i, rnd.nextInt(3_000));
      Object before = r.get(1);
      pool.share(r);
      assertThat(r.get(1)).isSameAs(before);
    }
    assertThat(pool.paused(1)).as("nothing replaced: paused").isTrue();
  }

  @Test
  void onlyEqualValuesSeenBeforeAreReplaced() {
    ValuePool pool = new ValuePool(3);
    Row first = Row.of(1_000L, "a", null);
    Object a = first.get(1);
    pool.share(first);
    assertThat(first.get(1)).isSameAs(a);
    Object id = Row.of(2_000_000L).get(0); // above the engine's shared small integers: a fresh instance
    Row second = Row.of(2_000_000L, new String("a".toCharArray()), null);
    Object secondId = second.get(0);
    pool.share(second);
    assertThat(second.get(1)).isSameAs(a);
    assertThat(second.get(0)).isSameAs(secondId).isNotSameAs(id);
    assertThat(second.isNull(2)).isTrue();
    String longText = "x".repeat(ValuePool.MAX_STRING + 1);
    pool.share(Row.of(3L, longText, null));
    String again = new String(longText.toCharArray());
    Row bigAgain = Row.of(3L, again, null);
    pool.share(bigAgain);
    assertThat(bigAgain.get(1)).as("long strings are not pooled").isSameAs(again);
  }

  @Test
  void aColumnWithFewValuesKeepsASmallCache() {
    ValuePool pool = new ValuePool(3);
    Random rnd = new Random(7);
    for (long i = 0; i < 5 * ValuePool.WINDOW; i++) {
      pool.share(Row.of(1_000_000_000_000L + i, 1_000_000_000_000L + rnd.nextInt(20), (long) rnd.nextInt(20)));
    }
    assertThat(pool.slots(1)).as("large integers: hashed").isEqualTo(ValuePool.FIRST);
    assertThat(pool.directSlots(1)).isZero();
    assertThat(pool.directSlots(2)).as("small integers: a table indexed by value").isEqualTo(ValuePool.FIRST);
    assertThat(pool.slots(2)).isZero();
    assertThat(pool.slots(0)).as("ids: never a hit, given up").isZero();
    assertThat(pool.pooling(0)).isFalse();
  }

  @Test
  void smallIntegersShareThroughTheirTableUpToItsBound() {
    ValuePool pool = new ValuePool(1);
    List<Row> rows = new ArrayList<>();
    Random rnd = new Random(5);
    for (int i = 0; i < 3 * ValuePool.WINDOW; i++) {
      long v = i % 2 == 0 ? rnd.nextInt(3_000) : ValuePool.DIRECT + rnd.nextInt(50); // fresh boxes (above Long's cache)
      Row r = Row.of(Long.valueOf(v + 0L));
      pool.share(r);
      assertThat(r.getLong(0)).isEqualTo(v);
      rows.add(r);
    }
    assertThat(pool.directSlots(0)).as("grown to hold 3,000").isEqualTo(4_096);
    assertThat(pool.slots(0)).as("integers from DIRECT on: hashed").isEqualTo(ValuePool.FIRST);
    List<Row> late = rows.subList(2 * ValuePool.WINDOW, rows.size());
    assertThat(instances(late.stream().filter(r -> r.getLong(0) < ValuePool.DIRECT).toList(), 0))
        .isLessThanOrEqualTo(3_000);
    assertThat(instances(late.stream().filter(r -> r.getLong(0) >= ValuePool.DIRECT).toList(), 0))
        .isLessThanOrEqualTo(50);
  }

  @Test
  void sharingRowsInBlocksGivesTheInstancesOfSharingThemOneByOne() {
    // The general path shares each row alone; the fast one a column at a time over blocks of
    // rows (as a load does, in blocks of BLOCK and shorter ones). The same stream of value
    // instances must end as the same instances, column by column.
    for (long seed : Seeds.runs(3)) {
      Random rnd = new Random(seed);
      String[] constants = {"open", "closed", "review"};
      int n = 40_000;
      Row[] blocks = new Row[n];
      Row[] single = new Row[n];
      for (int i = 0; i < n; i++) {
        Object[] values = {
            (long) i, // unique: stopped
            constants[rnd.nextInt(3)], // the writer's instances: paused
            new String(("title " + rnd.nextInt(700)).toCharArray()), // fresh copies: hashed strings
            Long.valueOf(rnd.nextInt(5_000) + 0L), // small integers: the table by value
            1_000_000_000L + rnd.nextInt(2_000), // large integers: hashed
            rnd.nextInt(30) / 4.0 + 0.1, // doubles: hashed
            rnd.nextInt(6) == 0 ? null : rnd.nextBoolean()};
        blocks[i] = Row.of(values);
        single[i] = Row.of(values);
      }
      ValuePool fast = new ValuePool(7);
      ValuePool general = new ValuePool(7);
      for (int from = 0; from < n; ) {
        int to = Math.min(n, from + (rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(3 * ValuePool.BLOCK) : ValuePool.BLOCK));
        fast.share(blocks, from, to, new Object[ValuePool.BLOCK][]);
        for (int i = from; i < to; i++) {
          general.share(single[i]);
        }
        from = to;
      }
      for (int c = 0; c < 7; c++) {
        // Each row's instance was first seen in the same row on both paths (Row.of makes its own
        // Doubles, so the rows' instances are compared by where they first appear).
        Map<Object, Integer> firstFast = new IdentityHashMap<>();
        Map<Object, Integer> firstGeneral = new IdentityHashMap<>();
        for (int i = 0; i < n; i++) {
          assertThat(blocks[i]).isEqualTo(single[i]);
          if (blocks[i].get(c) != null) {
            assertThat(firstFast.computeIfAbsent(blocks[i].get(c), v -> firstFast.size()))
                .as("seed %d (%s) row %d column %d", seed, Seeds.replayHint(seed), i, c)
                .isEqualTo(firstGeneral.computeIfAbsent(single[i].get(c), v -> firstGeneral.size()));
          }
        }
      }
      assertThat(fast.pooling(0)).isFalse();
      assertThat(fast.paused(1)).isTrue();
      assertThat(fast.directSlots(3)).isEqualTo(8_192);
      assertThat(fast.slots(4)).isPositive();
      assertThat(instances(List.of(blocks).subList(n / 2, n), 2)).as("titles").isLessThanOrEqualTo(700);
    }
  }

  @Test
  void aColumnOfSharedInstancesIsPausedAndResumesWhenCopiesCome() {
    String[] constants = {"open", "closed", "review", "blocked", "done"};
    ValuePool pool = new ValuePool(3);
    Random rnd = new Random(11);
    long id = 0;
    for (int i = 0; i < ValuePool.WINDOW; i++) { // column 1: the writer's constants; column 2: fresh copies
      String s = constants[rnd.nextInt(constants.length)];
      pool.share(Row.of(id++, s, new String(s.toCharArray())));
    }
    assertThat(pool.paused(1)).as("constants: the lookups replaced nothing").isTrue();
    assertThat(pool.paused(2)).as("copies: the lookups replaced them").isFalse();
    // While paused, a copy passes as given (no lookup); it still equals its copy.
    String copy = new String("open".toCharArray());
    Row during = Row.of(id++, copy, copy);
    pool.share(during);
    assertThat(during.get(1)).as("paused: not looked up").isSameAs(copy);
    assertThat(during.get(2)).as("pooled column: shared").isNotSameAs(copy).isEqualTo("open");
    // Copies from now on: the pause ends, the next window replaces them, and the column stays on.
    List<Row> late = new ArrayList<>();
    for (int i = 0; i < ValuePool.PAUSE + 3 * ValuePool.WINDOW; i++) {
      String s = constants[rnd.nextInt(constants.length)];
      Row r = Row.of(id++, new String(s.toCharArray()), s);
      Row before = Row.of(r.toList());
      pool.share(r);
      assertThat(r).isEqualTo(before);
      if (i >= ValuePool.PAUSE + ValuePool.WINDOW) {
        late.add(r);
      }
    }
    assertThat(pool.paused(1)).as("copies again: looked up again").isFalse();
    assertThat(instances(late, 1)).as("five values, shared again").isLessThanOrEqualTo(constants.length);
    assertThat(pool.pooling(0)).as("ids: given up after two windows without a hit").isFalse();
  }

  @Test
  void pausingKeepsTheInstancesOfTheGeneralPath() {
    // The same stream shared by two pools, one of them never paused (a fresh pool per window, the
    // general path: every value looked up): each row ends with the same instances in both, because
    // what a paused column skips was already the cached instance.
    for (long seed : Seeds.runs(3)) {
      Random rnd = new Random(seed);
      Long[] small = new Long[40];
      for (int i = 0; i < small.length; i++) {
        small[i] = (Long) Row.of(1_000L + i).get(0); // the writer's shared instances (the engine's own)
      }
      ValuePool pool = new ValuePool(2);
      ValuePool general = null;
      for (int i = 0; i < 6 * ValuePool.PAUSE / 5; i++) {
        if (i % (ValuePool.WINDOW - 1) == 0) {
          general = new ValuePool(2); // never reaches the end of a window: never paused
        }
        Long v = small[rnd.nextInt(small.length)];
        Row a = Row.of((long) i, v);
        Row b = Row.of((long) i, v);
        pool.share(a);
        general.share(b);
        assertThat(a.get(1)).as("seed %d (%s) row %d", seed, Seeds.replayHint(seed), i).isSameAs(v).isSameAs(b.get(1));
      }
      assertThat(pool.paused(1)).isTrue();
    }
  }

  @Test
  void writersOnSeveralThreadsGetEqualRows() throws Exception {
    ValuePool pool = new ValuePool(7);
    ExecutorService exec = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long base = t * 1_000_000L;
        done.add(exec.submit(() -> {
          Random rnd = new Random(base);
          int checked = 0;
          for (long id = base; id < base + 30_000; id++) {
            Row r = row(rnd, id);
            Row copy = Row.of(r.toList());
            pool.share(r);
            if (!r.equals(copy) || r.hashCode() != copy.hashCode()) {
              throw new AssertionError("thread of " + base + ": row " + copy + " shared as " + r);
            }
            checked++;
          }
          return checked;
        }));
      }
      for (Future<Integer> f : done) {
        assertThat(f.get()).isEqualTo(30_000);
      }
    } finally {
      exec.shutdownNow();
    }
  }

  @Test
  void aColumnOfMixedValuesSharesEachKind() {
    // One column taking turns between strings, small and large integers, doubles, NULLs, long
    // strings and booleans, in runs of random length: the loop of each kind hands over to the
    // next, rows stay equal to their copies, and each repeated value ends as few instances.
    for (long seed : Seeds.runs(3)) {
      Random rnd = new Random(seed);
      String longText = "x".repeat(ValuePool.MAX_STRING + 1);
      int n = 20_000;
      Row[] rows = new Row[n];
      Row[] copies = new Row[n];
      int kind = 0;
      for (int i = 0; i < n; i++) {
        if (rnd.nextInt(5) == 0) {
          kind = rnd.nextInt(7);
        }
        int v = rnd.nextInt(16);
        Object value = switch (kind) {
          case 0 -> new String(("s" + v).toCharArray());
          case 1 -> Long.valueOf(1_000 + v);
          case 2 -> Long.valueOf(5_000_000_000L + v);
          case 3 -> v / 4.0 + 0.1;
          case 4 -> null;
          case 5 -> new String(longText.toCharArray());
          default -> Boolean.valueOf(v % 2 == 0);
        };
        rows[i] = Row.of((long) i, value);
        copies[i] = Row.of((long) i, value);
      }
      ValuePool pool = new ValuePool(2);
      Object[][] block = new Object[ValuePool.BLOCK][];
      for (int from = 0; from < n; from += ValuePool.BLOCK) {
        pool.share(rows, from, Math.min(n, from + ValuePool.BLOCK), block);
      }
      List<Row> late = List.of(rows).subList(n / 2, n);
      for (int i = 0; i < n; i++) {
        assertThat(rows[i]).as("seed %d (%s) row %d", seed, Seeds.replayHint(seed), i).isEqualTo(copies[i]);
      }
      Map<Object, Set<Object>> byValue = new java.util.HashMap<>();
      for (Row r : late) {
        Object v = r.get(1);
        if (v != null) {
          byValue.computeIfAbsent(v, k -> Collections.newSetFromMap(new IdentityHashMap<>())).add(v);
        }
      }
      for (Map.Entry<Object, Set<Object>> e : byValue.entrySet()) {
        int most = e.getKey().equals(longText) ? Integer.MAX_VALUE : 2; // long strings are not pooled
        assertThat(e.getValue().size()).as("seed %d value %s", seed, e.getKey()).isLessThanOrEqualTo(most);
      }
      assertThat(byValue.get(longText)).as("long strings kept as given").hasSizeGreaterThan(1);
    }
  }

  private static int instances(List<Row> rows, int column) {
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Row r : rows) {
      if (r.get(column) != null) {
        seen.add(r.get(column));
      }
    }
    return seen.size();
  }

  @Test
  void aStopIsFinalWhileOtherWritersGrowAndMakeTheColumnsTables() throws Exception {
    // Writers share rows whose strings and small integers keep missing (the hashed cache grows at
    // window ends, the integer table widens) while the column is stopped: a writer that read the
    // column before the stop must not make or grow a table for it afterwards.
    for (int trial = 0; trial < 40; trial++) {
      ValuePool pool = new ValuePool(2);
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      Thread[] writers = new Thread[2];
      for (int w = 0; w < writers.length; w++) {
        int seed = trial * 2 + w;
        writers[w] = new Thread(() -> {
          Random rnd = new Random(seed);
          Row[] block = new Row[ValuePool.BLOCK];
          try {
            go.await();
          } catch (InterruptedException e) {
            return;
          }
          for (int b = 0; b < 200; b++) {
            for (int i = 0; i < block.length; i++) {
              block[i] = Row.of("s" + rnd.nextInt(1 << 14), (long) rnd.nextInt(1 << 13));
            }
            pool.share(block, 0, block.length, new Object[block.length][]);
          }
        });
        writers[w].start();
      }
      go.countDown();
      Thread.sleep(trial % 5);
      pool.stop(0);
      pool.stop(1);
      for (Thread t : writers) {
        t.join();
      }
      assertThat(pool.pooling(0)).as("trial " + trial).isFalse();
      assertThat(pool.slots(0)).as("trial " + trial + ": strings' cache").isZero();
      assertThat(pool.pooling(1)).as("trial " + trial).isFalse();
      assertThat(pool.directSlots(1)).as("trial " + trial + ": small integers' table").isZero();
    }
  }
}
