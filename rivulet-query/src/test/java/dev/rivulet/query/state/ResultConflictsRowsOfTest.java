package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import org.junit.jupiter.api.Test;

/**
 * {@link ResultConflicts#rowsOf}, the two rows an error message names for a key: two different
 * rows, a row held several times twice (never more), the one row of a valid key twice, and
 * nothing for a key that holds no row.
 */
class ResultConflictsRowsOfTest {
  private final ResultConflicts c = new ResultConflicts(r -> Row.of(r.get(0)));

  @Test
  void twoDifferentRowsOfOneKey() {
    c.add(Row.of(1, "a"), 1);
    c.add(Row.of(1, "b"), 1);
    assertThat(c.rowsOf(Row.of(1))).containsExactlyInAnyOrder(Row.of(1, "a"), Row.of(1, "b"));
  }

  @Test
  void aRowHeldThreeTimesIsNamedTwice() {
    c.add(Row.of(2, "x"), 3);
    assertThat(c.someInvalidKey()).isEqualTo(Row.of(2));
    assertThat(c.rowsOf(Row.of(2))).containsExactly(Row.of(2, "x"), Row.of(2, "x"));
  }

  @Test
  void theOneRowOfAValidKeyIsNamedTwice() {
    c.add(Row.of(3, "y"), 1);
    assertThat(c.rowsOf(Row.of(3))).containsExactly(Row.of(3, "y"), Row.of(3, "y"));
  }

  @Test
  void aKeyWithoutRowsNamesNone() {
    assertThat(c.rowsOf(Row.of(4))).isEmpty();
    c.add(Row.of(4, "z"), 1);
    c.add(Row.of(4, "z"), -1);
    assertThat(c.rowsOf(Row.of(4))).isEmpty();
    c.add(Row.of(5, "w"), -1); // a retraction of a row never added: no row to name
    assertThat(c.valid()).isFalse();
    assertThat(c.rowsOf(Row.of(5))).isEmpty();
  }
}
