package dev.rivulet.query.face;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link RootRanks} against a plain list through random inserts, removals and replacements. */
class RootRanksTest {
  @Test
  void ranksFollowAListThroughRandomEdits() {
    for (long seed : Seeds.runs(20)) {
      Random r = new Random(seed);
      RootRanks ranks = new RootRanks();
      List<Row> list = new ArrayList<>();
      long next = 0;
      for (int step = 0; step < 400; step++) {
        int k = r.nextInt(10);
        if (list.isEmpty() || k < 4) {
          int at = r.nextInt(list.size() + 1);
          Row row = Row.of(next++);
          ranks.insert(at, row);
          list.add(at, row);
        } else if (k < 6) {
          int at = r.nextInt(list.size());
          assertThat(ranks.removeAt(at)).as(Seeds.replayHint(seed)).isEqualTo(list.remove(at));
        } else if (k < 8) {
          Row row = list.get(r.nextInt(list.size()));
          assertThat(ranks.remove(row)).as(Seeds.replayHint(seed)).isTrue();
          list.remove(row);
        } else {
          int at = r.nextInt(list.size());
          Row row = Row.of(next++);
          ranks.replace(list.get(at), row);
          list.set(at, row);
        }
        assertThat(ranks.size()).as(Seeds.replayHint(seed)).isEqualTo(list.size());
        for (int i = 0; i < list.size(); i++) {
          assertThat(ranks.indexOf(list.get(i))).as(Seeds.replayHint(seed)).isEqualTo(i);
        }
      }
      assertThat(ranks.indexOf(Row.of(-1L))).isEqualTo(-1);
      assertThat(ranks.remove(Row.of(-1L))).isFalse();
    }
  }
}
