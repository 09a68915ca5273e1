package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BudgetTest {
  @Test
  void aBudgetIsSpentOnceItsWallTimeHasPassed() throws InterruptedException {
    Budget none = new Budget(0);
    Budget ample = new Budget(60_000);
    Budget brief = new Budget(5);
    assertThat(none.spent()).isTrue();
    assertThat(ample.spent()).isFalse();
    Thread.sleep(20);
    assertThat(brief.spent()).isTrue();
    assertThat(ample.spent()).isFalse();
  }
}
