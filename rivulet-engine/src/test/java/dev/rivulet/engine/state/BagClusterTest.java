package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Bag}'s open-addressing table under clustered hashes agrees with a plain map: values that
 * share one hash code (one long probe run), and values whose hashes all home to the table's last
 * slot, so that probe runs and the backward shift of removals wrap around the end. The table path
 * is proven taken ({@link Bag#indexed}) and the clustering real ({@link Bag#longestProbe}).
 */
class BagClusterTest {
  /** A value with a chosen hash code. */
  record Key(int id, int hash) {
    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.id == id;
    }
  }

  /** The hash codes whose slot is the last one: the inverse of the multiplier times -1. */
  private static final int LAST_SLOT = inverse(0x9E3779B9) * -1;

  private static int inverse(int odd) {
    int x = odd; // Newton's iteration for the inverse modulo 2^32
    for (int i = 0; i < 5; i++) {
      x *= 2 - odd * x;
    }
    return x;
  }

  @Test
  void clusteredHashesMatchAMap() {
    assertThat(LAST_SLOT * 0x9E3779B9).isEqualTo(-1);
    for (int kind = 0; kind < 3; kind++) {
      Random rnd = new Random(kind * 7919L + 1);
      Bag<Key> bag = new Bag<>();
      Map<Key, Long> model = new HashMap<>();
      int maxProbe = 0;
      boolean indexed = false;
      for (int op = 0; op < 20_000; op++) {
        int id = rnd.nextInt(op < 10_000 ? 120 : 40); // grow, then shrink back through removals
        int hash = switch (kind) {
          case 0 -> 42; // every value collides
          case 1 -> LAST_SLOT + (id % 3); // homes at and around the table's end
          default -> id % 5 == 0 ? LAST_SLOT : id << 20; // a cluster at the end, the rest spread
        };
        Key k = new Key(id, hash);
        long delta = op < 10_000 ? 1 + rnd.nextInt(2) - (rnd.nextInt(4) == 0 ? 2 : 0) : -rnd.nextInt(3);
        long before = model.getOrDefault(k, 0L);
        if (before + delta < 0) {
          delta = -before;
        }
        long expected = before + delta;
        if (expected == 0) {
          model.remove(k);
        } else {
          model.put(k, expected);
        }
        assertThat(bag.add(k, delta)).as("kind %d op %d", kind, op).isEqualTo(expected);
        assertThat(bag.size()).isEqualTo(model.size());
        indexed |= bag.indexed();
        maxProbe = Math.max(maxProbe, bag.longestProbe());
        if (op % 500 == 0) {
          for (int probe = 0; probe < 120; probe++) {
            Key q = new Key(probe, hashOf(kind, probe));
            assertThat(bag.weightOf(q)).as("kind %d op %d weight of %s", kind, op, q).isEqualTo(model.getOrDefault(q, 0L));
          }
        }
      }
      assertThat(indexed).as("kind %d reached the hash table", kind).isTrue();
      assertThat(maxProbe).as("kind %d clustered", kind).isGreaterThan(10);
    }
  }

  private static int hashOf(int kind, int id) {
    return switch (kind) {
      case 0 -> 42;
      case 1 -> LAST_SLOT + (id % 3);
      default -> id % 5 == 0 ? LAST_SLOT : id << 20;
    };
  }
}
