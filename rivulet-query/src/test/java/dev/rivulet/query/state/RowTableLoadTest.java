package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * How full {@link RowTable} gets: sequential primitive keys fill most of its slots (the dense path),
 * while random primitive keys (which scramble the table) and general keys stay at half load; on
 * each path the table answers like a map, also after removals and reinsertions.
 */
class RowTableLoadTest {
  @Test
  void sequentialKeysFillMostSlotsAndStillAnswerLikeAMap() {
    RowTable t = new RowTable(new int[] {0});
    Map<Long, Row> model = new HashMap<>();
    for (long i = 0; i < 30_000; i++) {
      Row r = Row.of(i, "v" + i);
      t.putRow(r);
      model.put(i, r);
    }
    assertThat(t.scrambled()).isFalse();
    assertThat(t.capacity()).as("30000 sequential keys in 32768 slots").isEqualTo(32_768);
    SplittableRandom rnd = new SplittableRandom(11);
    for (int op = 0; op < 40_000; op++) {
      long k = rnd.nextInt(40_000);
      if (rnd.nextBoolean()) {
        Row r = Row.of(k, "w" + op);
        assertThat(t.putRow(r)).as("op %d: put %d", op, k).isEqualTo(model.put(k, r));
      } else {
        assertThat(t.removeRow(Row.of(k, "x"))).as("op %d: remove %d", op, k).isEqualTo(model.remove(k));
      }
    }
    assertThat(t.size()).isEqualTo(model.size());
    assertThat(t.capacity()).as("never more than a slot in 32 left free").isLessThanOrEqualTo(65_536);
    assertThat(t.capacity() - t.size()).isGreaterThanOrEqualTo(t.capacity() / 32);
    model.forEach((k, r) -> assertThat(t.getRow(Row.of(k, "?"))).as("key %d", k).isSameAs(r));
  }

  @Test
  void randomAndGeneralKeysStayAtHalfLoad() {
    RowTable longs = new RowTable(new int[] {0});
    RowTable texts = new RowTable(new int[] {0});
    Map<Long, Row> model = new HashMap<>();
    SplittableRandom rnd = new SplittableRandom(5);
    for (int i = 0; i < 20_000; i++) {
      long k = rnd.nextLong();
      Row r = Row.of(k, i);
      longs.putRow(r);
      model.put(k, r);
      texts.putRow(Row.of("t" + i, i));
    }
    assertThat(longs.scrambled()).as("random keys make a long probe run").isTrue();
    assertThat(longs.size()).isLessThanOrEqualTo(longs.capacity() / 2);
    assertThat(texts.primitiveKeys()).isFalse();
    assertThat(texts.size()).isLessThanOrEqualTo(texts.capacity() / 2);
    model.forEach((k, r) -> assertThat(longs.getRow(Row.of(k, 0))).as("key %d", k).isSameAs(r));
  }

  @Test
  void aTinyTableNeverFillsUp() {
    RowTable t = new RowTable(new int[] {0});
    for (long i = 0; i < 16; i++) {
      t.putRow(Row.of(i, "v"));
    }
    assertThat(t.size()).isEqualTo(16);
    assertThat(t.capacity()).isGreaterThan(16);
    assertThat(t.getRow(Row.of(99L, "v"))).isNull();
  }
}
