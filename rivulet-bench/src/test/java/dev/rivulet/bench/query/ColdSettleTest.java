package dev.rivulet.bench.query;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The pause before a cold run's timed section: at least the quiet time, at most its bound, none when switched off. */
class ColdSettleTest {
  @Test
  void settleWaitsForAQuietJitButNoLongerThanItsBound() {
    long t0 = System.nanoTime();
    Cold.settle();
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(ms).isGreaterThanOrEqualTo(Cold.QUIET_MS).isLessThan(1_500);
  }

  @Test
  void settleSwitchedOffReturnsAtOnce() {
    System.setProperty("rivulet.bench.settle", "false");
    try {
      long t0 = System.nanoTime();
      Cold.settle();
      assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(Cold.QUIET_MS);
    } finally {
      System.clearProperty("rivulet.bench.settle");
    }
  }
}
