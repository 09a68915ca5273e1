package dev.rivulet.bench.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.bench.Report;
import dev.rivulet.bench.peers.PeerComments;
import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.bench.peers.W4State;
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

/** W4's driver, checker and runner at a small size (the benchmark's figures come from the runner). */
class W4WorkloadTest {
  private static final long SEED = PeerData.DEFAULT_SEED;
  private static final int ISSUES = 1_500;

  @Test
  void streamsKeepEachVisibleIssuesNewestCommentCurrent() {
    PeerData.Issue[] issues = PeerData.issues(ISSUES, SEED);
    W4State state = new W4State(issues, PeerComments.comments(ISSUES, SEED));
    for (String mix : PeerComments.MIXES) {
      PeerComments.Updates s = PeerComments.updates(mix, state, SEED);
      for (int i = 0; i < 500; i++) {
        PeerComments.Change c = s.next();
        assertThat(c.isInsert()).as(mix).isEqualTo(mix.equals("a") || mix.equals("b"));
        boolean visibleTarget = state.isVisible(c.after().issueId());
        switch (mix) {
          case "a" -> assertThat(visibleTarget).as(mix).isTrue();
          case "b" -> assertThat(visibleTarget).as(mix).isFalse();
          case "c2" -> assertThat(visibleTarget && state.isVisible(c.before().issueId())).as(mix).isTrue();
          default -> assertThat(c.after().issueId()).as(mix).isNotEqualTo(c.before().issueId());
        }
        s.applied(c);
      }
    }
    int[] visible = state.visible();
    assertThat(visible).hasSize(PeerData.LIMIT);
    for (int k = 0; k < visible.length; k++) {
      PeerComments.Comment want = null;
      for (PeerComments.Comment c : state.comments()) {
        if (c.issueId() == visible[k] && (want == null || PeerComments.ORDER.compare(c, want) < 0)) {
          want = c;
        }
      }
      assertThat(state.newest(k)).as("newest of visible issue %d", visible[k]).isEqualTo(want);
    }
  }

  @Test
  void checkerAcceptsTheLiveResultAndCatchesANewerComment() {
    PeerData.Issue[] issues = PeerData.issues(ISSUES, SEED);
    PeerComments.Comment[] comments = PeerComments.comments(ISSUES, SEED);
    Rivulet db = Rivulet.create();
    SourceCollection is = Tables.load(db, "issues", Tables.ISSUES, Tables.rows(issues));
    SourceCollection ps = Tables.load(db, "projects", Tables.PROJECTS, Tables.projects(SEED));
    SourceCollection cs = Tables.load(db, "comments", W4NestedQuery.COMMENTS,
        Arrays.stream(comments).map(W4NestedQuery::row).toArray(Row[]::new));
    LiveQuery q = db.liveQuery("W4", W4NestedQuery.query(is, ps, cs));
    W4State state = new W4State(issues, comments);
    PeerData.Project[] projects = PeerData.projects(SEED);
    List<Row> live = q.rows();
    assertThat(W4NestedQuery.check(live, state, projects, "live")).isNull();

    // The driver alone gets a newest comment on one visible issue: the check must see it there.
    PeerComments.Updates a = PeerComments.updates("a", state, SEED);
    PeerComments.Change c = a.next();
    a.applied(c);
    int row = Arrays.stream(state.visible()).boxed().toList().indexOf(c.after().issueId());
    assertThat(W4NestedQuery.check(live, state, projects, "driver ahead")).startsWith("driver ahead: row " + row + " is")
        .contains("[" + c.after().id() + ", " + c.after().created() + ", " + c.after().body() + "]");
  }

  @Test
  void runnerChecksEveryMixAndReportsTheExaminedRows() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Report out = new Report(new PrintStream(bytes, true, StandardCharsets.UTF_8), "rivulet");
    W4Harness.run(ISSUES, new Config(50, 300, 2, 200, SEED, false), out);
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertThat(out.failed()).as(text).isFalse();
    assertThat(text).contains("\"metric\":\"correct\",\"value\":true");
    for (String mix : PeerComments.MIXES) {
      assertThat(text).contains("\"mix\":\"" + mix + "\",\"metric\":\"update_p50_us\"")
          .contains("\"mix\":\"" + mix + "\",\"metric\":\"examined_max\"")
          .contains("\"mix\":\"" + mix + "\",\"metric\":\"change_events\"");
    }
  }
}
