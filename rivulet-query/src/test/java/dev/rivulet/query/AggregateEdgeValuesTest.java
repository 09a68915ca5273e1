package dev.rivulet.query;

import static dev.rivulet.query.Exprs.avg;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.countDistinct;
import static dev.rivulet.query.Exprs.max;
import static dev.rivulet.query.Exprs.min;
import static dev.rivulet.query.Exprs.sum;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.ref.RefType;
import dev.rivulet.testkit.Seeds;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Grouped aggregates over the edge values the SQL-checked suites keep away from (the engines
 * overflow or round there): 64-bit integer edges and integers beyond 64 bits in an INT column
 * (some of which a double holds exactly), huge, tiny and many-digit decimals, -0.0 and doubles
 * past 2^53, with inserts, replacements and deletes, checked after every change against the
 * reference {@link NaiveAggregates} (which shares no code with the engine's accumulators).
 * Non-finite doubles are the engine's own oracle suites' (the testkit's {@code Naive}).
 */
class AggregateEdgeValuesTest {
  private static final Object[] INTS = {Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L, 1L << 62, -(1L << 62),
      BigInteger.ONE.shiftLeft(63), BigInteger.ONE.shiftLeft(64).add(BigInteger.ONE),
      BigInteger.ONE.shiftLeft(63).negate().subtract(BigInteger.ONE), (1L << 53) + 1, null};
  private static final Object[] DOUBLES = {-0.0, 1e308, -1e308, 0.1, 0.5, 1e19, 9.007199254740992E15, Double.MIN_VALUE,
      null};
  private static final Object[] DECIMALS = {new BigDecimal("1E+40"), new BigDecimal("0.10"), new BigDecimal("1E-40"),
      new BigDecimal("123456789012345678901234567890.123"), 0.5, 7L, new BigDecimal("-0.00"), null};
  private static final List<String> COLUMNS = List.of("i", "d", "m");
  private static final List<RefType> TYPES = List.of(RefType.INT, RefType.DOUBLE, RefType.DECIMAL);

  @Test
  void aggregatesOverEdgeValuesFollowTheReference() {
    for (long seed : Seeds.runs(40)) {
      run(seed);
    }
  }

  private static void run(long seed) {
    Random r = new Random(seed);
    Rivulet db = Rivulet.create();
    SourceCollection s = db.collection("s", Schema.parse("id INT NOT NULL, g INT, i INT, d DOUBLE, m DECIMAL"),
        List.of("id"));
    List<QueryIR.SelectItem> items = new ArrayList<>();
    List<Expr.Agg> aggs = new ArrayList<>();
    items.add(Query.as("g", col("s.g")));
    for (String c : COLUMNS) {
      Expr x = col("s." + c);
      for (Expr e : new Expr[] {sum(x), avg(x), min(x), max(x), countDistinct(x)}) {
        items.add(Query.as("a" + aggs.size(), e));
        aggs.add((Expr.Agg) e);
      }
    }
    LiveQuery q = db.liveQuery("q", Query.from("s", s).groupBy(col("s.g"))
        .select(items.toArray(new QueryIR.SelectItem[0])));
    Map<Long, Row> rows = new HashMap<>();
    for (int step = 0; step < 30; step++) {
      long id = r.nextInt(8);
      if (r.nextInt(3) == 0) {
        s.beginSync().delete(Row.of(id)).commit();
        rows.remove(id);
      } else {
        Row row = Row.of(id, (long) r.nextInt(2), pick(r, INTS), pick(r, DOUBLES), pick(r, DECIMALS));
        s.beginSync().write(row).commit();
        rows.put(id, row);
      }
      Map<Object, Row> got = new HashMap<>();
      for (Row row : q.rows()) {
        got.put(row.get(0), row);
      }
      assertThat(got).as("seed %d step %d rows %s (%s)", seed, step, rows.values(), Seeds.replayHint(seed))
          .isEqualTo(expected(rows, aggs));
    }
  }

  /** Per group value: the group row the reference computes from the group's rows. */
  private static Map<Object, Row> expected(Map<Long, Row> rows, List<Expr.Agg> aggs) {
    Map<Object, List<Row>> groups = new HashMap<>();
    for (Row row : rows.values()) {
      groups.computeIfAbsent(row.get(1), g -> new ArrayList<>()).add(row);
    }
    Map<Object, Row> out = new HashMap<>();
    groups.forEach((g, members) -> {
      Object[] values = new Object[1 + aggs.size()];
      values[0] = g;
      for (int a = 0; a < aggs.size(); a++) {
        int column = a / 5;
        List<Object> args = new ArrayList<>();
        for (Row row : members) {
          args.add(row.get(2 + column));
        }
        values[1 + a] = NaiveAggregates.compute(aggs.get(a), TYPES.get(column), args);
      }
      out.put(g, Row.of(values));
    });
    return out;
  }

  private static Object pick(Random r, Object[] values) {
    return values[r.nextInt(values.length)];
  }
}
