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
    assertThat(none.getAsBoolean()).as("a spent budget stops the warm-up").isTrue();
  }

  @Test
  void aYieldingBudgetStopsOnceAUsersQueryStarted() {
    Rivulet db = Rivulet.create();
    SourceCollection items = db.collection("items", dev.rivulet.engine.Schema.parse("id INT NOT NULL"),
        java.util.List.of("id"));
    db.liveQuery("q", Query.from("i", items)); // a user's query: the warm-up yields from now on, in this JVM
    assertThat(Warmup.userQueryStarted()).isTrue();
    assertThat(new Budget(60_000, true).getAsBoolean()).isTrue();
    assertThat(new Budget(60_000).getAsBoolean()).as("not yielding: only its time stops it").isFalse();
  }
}
