package dev.rivulet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Graph;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.JoinType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A join on one column (value-keyed index: integer keys in the primitive table, others beside it,
 * a hydration-sized first batch loaded in bulk) and the same join on that column plus a column
 * that is always 0 (row-keyed index) emit the same changes after every step of random histories:
 * inserts and retractions with multiplicities, duplicate rows, NULL keys, keys at the extremes of
 * {@code long}, keys whose {@link Long#hashCode} collides, and non-integer keys.
 */
class JoinKeyPathAgreementTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, k DECIMAL, c INT NOT NULL, v INT");
  private static final int BULK = 5_000; // above the engine's bulk-load threshold (4,096)
  private static final List<Object> KEYS = List.of(Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, 0L, -1L,
      1L << 32, (1L << 32) + 1, 1L, 2L, 3L, 1.5, -2.5, new BigDecimal("1e30"), new BigDecimal("2.000"));

  private static Graph graph(JoinType type, List<String> keys) {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("l", S).join(b.input("r", S), type, keys, keys));
    return b.build();
  }

  @ParameterizedTest
  @EnumSource(JoinType.class)
  void valueKeyedAndRowKeyedJoinsEmitTheSameChanges(JoinType type) {
    int nonEmpty = 0;
    for (long seed : Seeds.runs(4)) {
      Random rnd = new Random(seed);
      Graph fast = graph(type, List.of("k"));
      Graph general = graph(type, List.of("k", "c"));
      Map<String, Map<Row, Long>> held = Map.of("l", new HashMap<>(), "r", new HashMap<>());
      Map<String, List<Row>> sent = Map.of("l", new ArrayList<>(), "r", new ArrayList<>());
      for (int step = 0; step < 40; step++) {
        for (String side : List.of("l", "r")) {
          int n = step == 0 && rnd.nextBoolean() ? BULK : rnd.nextInt(6);
          for (int i = 0; i < n; i++) {
            Row row = change(rnd, held.get(side), sent.get(side), n == BULK ? 2_000 : 40);
            long w = weight(rnd, held.get(side), row);
            fast.input(side).send(row, w);
            general.input(side).send(row, w);
          }
        }
        fast.run();
        general.run();
        Map<Row, Long> want = general.output("out").delta().toMap();
        assertThat(fast.output("out").delta().toMap())
            .as("%s join, step %d; replay: %s", type, step, Seeds.replayHint(seed))
            .isEqualTo(want);
        nonEmpty += want.isEmpty() ? 0 : 1;
      }
    }
    assertThat(nonEmpty).as("steps that changed the join").isGreaterThan(10);
  }

  /**
   * A row to change: one sent before and still held (to retract or duplicate), or a new one; ids
   * repeat, so new rows repeat too.
   */
  private static Row change(Random rnd, Map<Row, Long> held, List<Row> sent, int ids) {
    if (!sent.isEmpty() && rnd.nextInt(3) == 0) {
      Row old = sent.get(rnd.nextInt(sent.size()));
      if (held.containsKey(old)) {
        return old;
      }
    }
    Object key = rnd.nextInt(8) == 0 ? null : KEYS.get(rnd.nextInt(KEYS.size()));
    if (ids > KEYS.size() * 10 && rnd.nextInt(20) != 0) {
      key = (long) rnd.nextInt(ids) - ids / 2; // a bulk batch: many keys, so few matches per key
    }
    Row row = Row.of(rnd.nextInt(ids), key, 0, rnd.nextInt(3));
    sent.add(row);
    return row;
  }

  /** A weight for {@code row}: up to 3 copies in, or out at most as many as are held. */
  private static long weight(Random rnd, Map<Row, Long> held, Row row) {
    long have = held.getOrDefault(row, 0L);
    long w = have > 0 && rnd.nextBoolean() ? -(1 + rnd.nextInt((int) Math.min(have, 3))) : 1 + rnd.nextInt(3);
    if (have + w == 0) {
      held.remove(row);
    } else {
      held.put(row, have + w);
    }
    return w;
  }
}
