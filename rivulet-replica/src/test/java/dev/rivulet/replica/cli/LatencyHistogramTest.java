package dev.rivulet.replica.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {
  @Test
  void percentilesAreTheNearestRankInMicrosecondsAndResetEmptiesIt() {
    LatencyHistogram h = new LatencyHistogram();
    assertThat(h.percentileMicros(0.5)).isZero();
    for (int us = 1; us <= 100; us++) {
      h.record(us * 1_000L + 999); // 1.999 µs counts as 1 µs
    }
    assertThat(h.count()).isEqualTo(100);
    assertThat(h.percentileMicros(0.5)).isEqualTo(50);
    assertThat(h.percentileMicros(0.99)).isEqualTo(99);
    assertThat(h.percentileMicros(1.0)).isEqualTo(100);
    h.record(5_000_000_000L); // 5 s: counted in the last bucket
    assertThat(h.percentileMicros(1.0)).isEqualTo(99_999);
    h.reset();
    assertThat(h.count()).isZero();
    assertThat(h.percentileMicros(0.99)).isZero();
  }
}
