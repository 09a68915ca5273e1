package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link ResultConflicts}: a key is valid while it holds exactly one row once. */
class ResultConflictsTest {
  private static ResultConflicts byFirstColumn() {
    return new ResultConflicts(r -> Row.of(r.get(0)));
  }

  @Test
  void aKeyIsInvalidWhileItHoldsTwoRowsOrOneRowTwice() {
    ResultConflicts c = byFirstColumn();
    assertThat(c.valid()).isTrue();
    assertThat(c.someInvalidKey()).isNull();
    c.add(Row.of(1, "a"), 1);
    c.add(Row.of(2, "b"), 1);
    assertThat(c.valid()).isTrue();
    c.add(Row.of(1, "c"), 1);
    assertThat(c.valid()).isFalse();
    assertThat(c.someInvalidKey()).isEqualTo(Row.of(1));
    c.add(Row.of(1, "a"), -1);
    assertThat(c.valid()).as("one row left under key 1").isTrue();
    assertThat(c.rows()).containsExactlyInAnyOrderEntriesOf(Map.of(Row.of(1), Row.of(1, "c"), Row.of(2), Row.of(2, "b")));
    c.add(Row.of(2, "b"), 1);
    assertThat(c.valid()).as("one row twice").isFalse();
    assertThat(c.someInvalidKey()).isEqualTo(Row.of(2));
    c.add(Row.of(2, "b"), -2);
    assertThat(c.valid()).as("key 2 gone").isTrue();
    assertThat(c.rows()).containsExactlyInAnyOrderEntriesOf(Map.of(Row.of(1), Row.of(1, "c")));
  }

  @Test
  void weightsAddUpPerRow() {
    ResultConflicts c = byFirstColumn();
    c.add(Row.of(1, "a"), 3);
    assertThat(c.valid()).isFalse();
    c.add(Row.of(1, "a"), -1);
    assertThat(c.valid()).isFalse();
    c.add(Row.of(1, "a"), -1);
    assertThat(c.valid()).isTrue();
    assertThat(c.rows()).containsExactlyInAnyOrderEntriesOf(Map.of(Row.of(1), Row.of(1, "a")));
    c.add(Row.of(1, "a"), -1);
    assertThat(c.rows()).isEmpty();
    assertThat(c.valid()).isTrue();
  }

  @Test
  void removingTheLastRowOfAnInvalidKeyMakesItValid() {
    ResultConflicts c = byFirstColumn();
    c.add(Row.of(1, "a"), 1);
    c.add(Row.of(1, "b"), 1);
    c.add(Row.of(1, "a"), -1);
    c.add(Row.of(1, "b"), -1);
    assertThat(c.valid()).isTrue();
    assertThat(c.rows()).isEmpty();
  }
}
