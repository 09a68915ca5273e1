package dev.rivulet.bench.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.bench.Report;
import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.engine.Row;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Rivulet;
import dev.rivulet.query.SourceCollection;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** W6's streams, naive check and Rivulet runner at a small size (the benchmark's figures come from the runner). */
class W6WorkloadTest {
  private static final long SEED = PeerData.DEFAULT_SEED;
  private static final int ISSUES = 3_000;
  private static final int TITLE = 3;

  @Test
  void streamsChangeOnlyTheWordOfTheTitleAndEdgeStaysNearTheWindow() {
    PeerData.Issue[] cur = PeerData.issues(ISSUES, SEED);
    for (String mix : List.of("random", "edge")) {
      PeerData.Updates s = PeerData.updates("W6", mix, cur, SEED);
      int farthest = 0;
      for (int i = 0; i < 1_000; i++) {
        PeerData.Issue after = s.next();
        PeerData.Issue before = cur[after.id()];
        assertThat(after.title()).isNotEqualTo(before.title()).endsWith(" in module " + after.id() % 97);
        assertThat(retitled(after, before.title())).isEqualTo(before);
        if (mix.equals("edge")) {
          List<PeerData.Issue> open = Arrays.stream(cur).filter(PeerData.Issue::isOpen).sorted(PeerData.W6_ORDER).toList();
          farthest = Math.max(farthest, open.indexOf(before));
        }
        s.applied(after);
      }
      if (mix.equals("edge")) {
        assertThat(farthest).isBetween(PeerData.LIMIT, PeerData.LIMIT + PeerData.EDGE_SPAN - 1);
      }
    }
  }

  @Test
  void liveWindowFollowsTheNaiveRecomputationThroughBothMixes() {
    int rows = 20_000; // about 9 open issues per title, so titles repeat inside the window
    PeerData.Issue[] cur = PeerData.issues(rows, SEED);
    Tables.Data data = Tables.Data.generate(rows, SEED);
    W6TitleWindowQuery w = new W6TitleWindowQuery();
    Rivulet db = Rivulet.create();
    SourceCollection issues = Tables.load(db, "issues", Tables.ISSUES, Tables.rows(cur));
    LiveQuery q = db.liveQuery("W6", w.query(issues, null, null));
    assertThat(q.rows()).hasSize(PeerData.LIMIT);
    // titles repeat inside the window, so the id tie-break is exercised
    assertThat(q.rows().stream().map(r -> r.get(TITLE)).distinct().count()).isLessThan(PeerData.LIMIT / 4);
    assertThat(w.check(q.rows(), cur, data, "hydrated")).isNull();
    for (String mix : w.mixes()) {
      PeerData.Updates s = PeerData.updates("W6", mix, cur, SEED);
      for (int i = 0; i < 2_000; i++) {
        PeerData.Issue after = s.next();
        issues.beginSync().write(Tables.row(after)).commit();
        s.applied(after);
        if (i % 25 == 0) {
          assertThat(w.check(q.rows(), cur, data, mix + " update " + i)).isNull();
        }
      }
      assertThat(w.check(q.rows(), cur, data, "after " + mix)).isNull();
    }
  }

  @Test
  void checkerCatchesATitleChangedOnlyInTheDriver() {
    PeerData.Issue[] cur = PeerData.issues(ISSUES, SEED);
    W6TitleWindowQuery w = new W6TitleWindowQuery();
    List<Row> expected = w.naive(cur, null);
    int id = ((Number) expected.get(0).get(0)).intValue();
    cur[id] = retitled(cur[id], "zzz in module " + id % 97);
    assertThat(w.check(expected, cur, null, "driver ahead")).startsWith("driver ahead: row 0 is " + expected.get(0));
  }

  private static PeerData.Issue retitled(PeerData.Issue i, String title) {
    return new PeerData.Issue(i.id(), i.status(), i.priority(), title, i.created(), i.assignee(), i.projectId());
  }

  @Test
  void runnerAndOneBuildModesReportCheckedFigures() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Report out = new Report(new PrintStream(bytes, true, StandardCharsets.UTF_8), "rivulet");
    Config cfg = new Config(100, 500, 2, 200, SEED, false);
    W6TitleWindowQuery w = new W6TitleWindowQuery();
    assertThat(Harness.named("W6")).isInstanceOf(W6TitleWindowQuery.class);
    Harness.run(w, ISSUES, cfg, out);
    Harness.cold(w, ISSUES, cfg, out);
    Harness.memory(w, ISSUES, cfg, out);
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertThat(out.failed()).as(text).isFalse();
    assertThat(text).contains("\"metric\":\"correct\",\"value\":true", "\"metric\":\"correct_cold\",\"value\":true",
        "\"metric\":\"correct_memory\",\"value\":true", "\"mix\":\"random\",\"metric\":\"update_p50_us\"",
        "\"mix\":\"edge\",\"metric\":\"update_p99_us\"", "\"metric\":\"hydrate_cold_ms\"",
        "\"metric\":\"heap_bytes_per_row\"");
  }
}
