package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import org.junit.jupiter.api.Test;

/**
 * When {@link RowTable} switches to the multiplicative spread ({@link RowTable#scrambled}): never
 * for keys whose hashes spread (dense long keys, random text keys), and after one long probe run however
 * the row came in (a key given with {@link RowTable#put}, or derived by {@link RowTable#putRow}),
 * for primitive and for general keys.
 */
class RowTableSpreadTest {
  /** Long keys whose unscrambled home is slot 0 at every capacity. */
  private static Row clustered(long i) {
    return Row.of((i << 32) | i, "v" + i);
  }

  @Test
  void keysThatSpreadNeverSwitch() {
    RowTable longs = new RowTable(new int[] {0});
    RowTable texts = new RowTable(new int[] {0});
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
    for (int i = 0; i < 1_000; i++) {
      longs.putRow(Row.of(i, "v"));
      texts.putRow(Row.of("key-" + Long.toHexString(rnd.nextLong()) + "-" + i, i));
    }
    assertThat(longs.primitiveKeys()).isTrue();
    assertThat(longs.scrambled()).isFalse();
    assertThat(texts.primitiveKeys()).isFalse();
    assertThat(texts.scrambled()).as("text keys with spread hashes").isFalse();
    assertThat(texts.size()).isEqualTo(1_000);
  }

  @Test
  void aLongRunSwitchesWhenRowsComeByPutRow() {
    RowTable t = new RowTable(new int[] {0});
    for (long i = 1; i <= 60; i++) {
      t.putRow(clustered(i));
    }
    assertThat(t.primitiveKeys()).isTrue();
    assertThat(t.scrambled()).isTrue();
    for (long i = 1; i <= 60; i++) {
      assertThat(t.getRow(clustered(i))).isEqualTo(clustered(i));
    }
  }

  @Test
  void aLongRunSwitchesWhenKeysAreGiven() {
    RowTable t = new RowTable(new int[] {0});
    for (long i = 1; i <= 60; i++) {
      Row r = clustered(i);
      t.put(Row.of(r.get(0)), r);
    }
    assertThat(t.primitiveKeys()).isTrue();
    assertThat(t.scrambled()).isTrue();
    for (long i = 1; i <= 60; i++) {
      assertThat(t.get(Row.of((i << 32) | i))).isEqualTo(clustered(i));
    }
  }
}
