package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RetractedRows} holds rows by identity, the same way while small (a list) and large (a set). */
class RetractedRowsTest {
  @Test
  void rowsAreTakenOutByIdentityAtEverySize() {
    for (int n : new int[] {1, 2, 16, 17, 40}) {
      RetractedRows retracted = new RetractedRows();
      assertThat(retracted.isEmpty()).isTrue();
      List<Row> stored = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        stored.add(Row.of(i, "r" + i));
        retracted.add(stored.get(i));
        assertThat(retracted.isEmpty()).as("%d of %d added", i + 1, n).isFalse();
      }
      assertThat(retracted).as("n %d", n).containsExactlyInAnyOrderElementsOf(stored);
      assertThat(retracted.remove(Row.of(0, "r0"))).as("an equal row is not the stored one").isFalse();
      assertThat(retracted.remove(Row.of(n, "absent"))).isFalse();
      // Take out every other row, then the rest from the end.
      for (int i = 0; i < n; i += 2) {
        assertThat(retracted.remove(stored.get(i))).as("n %d, row %d", n, i).isTrue();
        assertThat(retracted.remove(stored.get(i))).as("only once").isFalse();
      }
      List<Row> left = new ArrayList<>();
      for (int i = 1; i < n; i += 2) {
        left.add(stored.get(i));
      }
      assertThat(retracted).as("n %d", n).containsExactlyInAnyOrderElementsOf(left);
      assertThat(retracted.isEmpty()).isEqualTo(left.isEmpty());
      for (int i = left.size() - 1; i >= 0; i--) {
        assertThat(retracted.remove(left.get(i))).isTrue();
      }
      assertThat(retracted.isEmpty()).isTrue();
      assertThat(retracted).isEmpty();
    }
  }

  @Test
  void clearEmptiesBothForms() {
    for (int n : new int[] {3, 30}) {
      RetractedRows retracted = new RetractedRows();
      Row kept = Row.of(-1);
      for (int i = 0; i < n; i++) {
        retracted.add(Row.of(i));
      }
      retracted.clear();
      assertThat(retracted.isEmpty()).isTrue();
      assertThat(retracted).isEmpty();
      retracted.add(kept);
      assertThat(retracted).containsExactly(kept);
      assertThat(retracted.remove(kept)).isTrue();
    }
  }
}
