package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link PackedBags}' layout: a batch grouped by key packs into one run of consecutive entries per
 * key as it is; a scattered one packs as it comes and its first change, an addition or a
 * retraction, lays every key's live entries out in one run. A retraction of the very object
 * notes no hashes; one of an equal copy notes them. Either way each key's chain holds its
 * values in batch order, then what was appended; packed from boxed keys or from a {@link
 * LongBatch}, on dense and on hashed keys. Seeds: {@code -Drivulet.seed} replays one, {@code
 * -Drivulet.runs} multiplies the runs.
 */
class PackedLayoutTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x1A70L);
  private static final int RUNS = 16 * Integer.getInteger("rivulet.runs", 1);

  /** A batch's entries: keys, values and weights, in batch order. */
  private record Batch(long[] keys, String[] values, long[] weights) {
    PackedBags<String> pack(boolean noted) {
      int n = keys.length;
      Object[] boxed = new Object[n + 1];
      Object[] vs = new Object[n + 1];
      long[] ws = new long[n + 1];
      for (int i = 0; i < n; i++) {
        boxed[i] = keys[i];
        vs[i] = values[i];
        ws[i] = weights[i];
      }
      boxed[n] = "other"; // a key of another kind is not packed (nor noted in a LongBatch)
      vs[n] = "x";
      ws[n] = 1;
      return noted
          ? PackedBags.of(Batches.longBatch(boxed, vs, ws))
          : PackedBags.of(boxed, vs, ws, n + 1);
    }

    /** Each key's values with their weights ({@code value*weight}), in batch order. */
    Map<Long, List<String>> model() {
      Map<Long, List<String>> out = new LinkedHashMap<>();
      for (int i = 0; i < keys.length; i++) {
        out.computeIfAbsent(keys[i], k -> new ArrayList<>()).add(values[i] + "*" + weights[i]);
      }
      return out;
    }
  }

  private static Batch batch(Random rnd, boolean grouped) {
    boolean dense = rnd.nextBoolean();
    int distinct = 1 + rnd.nextInt(200);
    List<Long> keyPool = new ArrayList<>();
    for (int i = 0; i < distinct; i++) {
      keyPool.add(dense ? -50L + i : rnd.nextLong());
    }
    int n = distinct + rnd.nextInt(2000);
    List<Long> keys = new ArrayList<>(keyPool); // every key at least once
    while (keys.size() < n) {
      keys.add(keyPool.get(rnd.nextInt(distinct)));
    }
    Collections.shuffle(keys, rnd);
    Object[] boxed = keys.toArray();
    String[] vs = new String[n];
    long[] ws = new long[n];
    boolean ones = rnd.nextBoolean();
    for (int i = 0; i < n; i++) {
      vs[i] = "v" + i;
      ws[i] = ones ? 1 : 1 + rnd.nextInt(3);
    }
    if (grouped) { // each key's entries together, the keys in an order of their own
      Batches.group(boxed, vs, ws);
    }
    long[] ks = new long[n];
    for (int i = 0; i < n; i++) {
      ks[i] = (Long) boxed[i];
    }
    return new Batch(ks, vs, ws);
  }

  /** Key {@code k}'s chain as {@code value*weight}; with {@code runs}, checked to be one run. */
  private static List<String> chain(PackedBags<String> p, long k, boolean runs, String where) {
    List<String> out = new ArrayList<>();
    int s = p.slot(k);
    if (s < 0 || p.count(s) == 0) {
      return out;
    }
    int e = p.first(s);
    for (int prev = -1; e >= 0; prev = e, e = p.next(e)) {
      if (runs && prev >= 0) {
        assertThat(e).as(where + ": key " + k + "'s entries are one run").isEqualTo(prev + 1);
      }
      out.add(p.value(e) + "*" + p.weight(e));
    }
    assertThat(out).as(where + ": key " + k + "'s count").hasSize(p.count(s));
    return out;
  }

  @Test
  void aBatchGroupedByKeyPacksIntoRunsAsItIs() {
    for (int r = 0; r < RUNS; r++) {
      Random rnd = new Random(BASE_SEED + r);
      Batch b = batch(rnd, true);
      for (boolean noted : new boolean[] {false, true}) {
        String where = "seed " + (BASE_SEED + r) + (noted ? ", noted" : ", boxed");
        PackedBags<String> p = b.pack(noted);
        assertThat(p.scattered()).as(where).isFalse();
        b.model().forEach((k, want) ->
            assertThat(chain(p, k, true, where)).as(where).isEqualTo(want));
      }
    }
  }

  @Test
  void aScatteredBatchIsLaidOutInRunsByItsFirstChange() {
    int scattered = 0;
    for (int r = 0; r < RUNS; r++) {
      Random rnd = new Random(BASE_SEED + r);
      Batch b = batch(rnd, false);
      for (boolean noted : new boolean[] {false, true}) {
        for (boolean retract : new boolean[] {false, true}) {
          String where = "seed " + (BASE_SEED + r) + (noted ? ", noted" : ", boxed")
              + (retract ? ", retraction" : ", addition");
          PackedBags<String> p = b.pack(noted);
          Map<Long, List<String>> model = b.model();
          boolean wasScattered = p.scattered();
          scattered += wasScattered ? 1 : 0;
          model.forEach((k, want) ->
              assertThat(chain(p, k, !wasScattered, where)).as(where).isEqualTo(want));
          int i = rnd.nextInt(b.keys().length);
          long k = b.keys()[i];
          int s = p.slot(k);
          if (retract) { // the value the batch gave the key or an equal copy: all its weight
            boolean copy = rnd.nextBoolean();
            String v = copy ? new String(b.values()[i]) : b.values()[i];
            assertThat(p.retract(s, v, b.weights()[i])).as(where).isZero();
            assertThat(p.hashed()).as(where + ": hashes noted only for a copy").isEqualTo(copy);
            model.get(k).remove(b.values()[i] + "*" + b.weights()[i]);
          } else {
            p.append(s, "added", 2);
            model.get(k).add("added*2");
          }
          assertThat(p.scattered()).as(where + ": laid out").isFalse();
          // the changed key's run may have lost an entry or gained one at its end; others whole
          model.forEach((key, want) ->
              assertThat(chain(p, key, key != k, where)).as(where).isEqualTo(want));
        }
      }
    }
    assertThat(scattered).as("scattered batches met").isGreaterThan(RUNS);
  }
}
