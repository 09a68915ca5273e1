package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.max;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.OperatorStats;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The outer-join presence column ({@code QueryCompiler.witnessed}: a hidden, always-true {@code
 * __present} column added to the rows and key of a relation that an outer join may null-extend and
 * whose key cannot tell "absent" from "present with NULL keys"). Two global aggregates (empty keys)
 * FULL JOINed give rows that only the presence column keeps apart: {@code [1, NULL]} (the right
 * side absent) next to {@code [NULL, 2]} (the left absent), and {@code [NULL, NULL]} (the left
 * present with a NULL max, the right absent). The path is proven taken (one presence map per
 * null-supplying side in the plan, none for the inner join), and the rows agree with the naive
 * evaluator (the reference), which knows nothing of the column, through inserts, updates and
 * deletes.
 */
class PresenceColumnTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection a = db.collection("a", Schema.parse("id INT NOT NULL, v INT"), List.of("id"));
  private final SourceCollection b = db.collection("b", Schema.parse("id INT NOT NULL, v INT"), List.of("id"));

  private Query joined(QueryIR.JoinKind kind) {
    return Query.from("x", Query.from("ta", a).select(Query.as("m", max(col("ta.v")))))
        .join(kind, "y", Query.from("tb", b).select(Query.as("m", max(col("tb.v")))), Query.on("x.m", "y.m"));
  }

  @Test
  void fullJoinOfGlobalAggregatesKeepsBothSidesApart() {
    a.beginSync().write(Row.of(1, 1)).markReady().commit();
    b.beginSync().write(Row.of(1, 2)).markReady().commit();
    LiveQuery full = db.liveQuery("full", joined(QueryIR.JoinKind.FULL));
    LiveQuery inner = db.liveQuery("inner", joined(QueryIR.JoinKind.INNER));
    assertThat(maps(full) - maps(inner)).as("presence maps, one per null-supplying side").isEqualTo(2);

    check(full, rows(Row.of(1, null), Row.of(null, 2)));
    b.beginSync().write(Row.of(1, 1)).commit(); // the maxima meet: one matched row
    check(full, rows(Row.of(1, 1)));
    a.beginSync().delete(Row.of(1)).commit(); // a's max is NULL: present, and matches nothing
    check(full, rows(Row.of(null, null), Row.of(null, 1)));
    b.beginSync().delete(Row.of(1)).commit(); // both NULL, both present, unmatched
    check(full, rows(Row.of(null, null), Row.of(null, null)));
    a.beginSync().write(Row.of(2, 5)).commit();
    b.beginSync().write(Row.of(2, 5)).write(Row.of(3, 4)).commit();
    check(full, rows(Row.of(5, 5)));
    assertThat(full.status()).isEqualTo(Status.READY);
  }

  private void check(LiveQuery q, List<Row> expected) {
    NaiveQuery.Result naive = new NaiveQuery(this::contents).eval(joined(QueryIR.JoinKind.FULL).ir());
    assertThat(ResultMatch.multisetDiff(expected, naive.window())).as("the reference agrees with the expectation")
        .isNull();
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(ResultMatch.multisetDiff(expected, q.rows())).as("live rows").isNull();
  }

  private List<NaiveQuery.KRow> contents(Source s) {
    List<NaiveQuery.KRow> out = new ArrayList<>();
    ((SourceCollection) s).rows().forEach(r -> out.add(new NaiveQuery.KRow(r, Row.of(r.get(0)))));
    return out;
  }

  private static List<Row> rows(Row... rows) {
    return Arrays.asList(rows);
  }

  private static long maps(LiveQuery q) {
    return q.stats().stream().map(OperatorStats::kind).filter("map"::equals).count();
  }
}
