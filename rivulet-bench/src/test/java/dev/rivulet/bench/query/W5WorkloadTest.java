package dev.rivulet.bench.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.bench.Report;
import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.bench.peers.PeerTasks;
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

/** W5's stream, naive check and Rivulet runner at a small size (the benchmark's figures come from the runner). */
class W5WorkloadTest {
  private static final long SEED = PeerData.DEFAULT_SEED;
  private static final int TASKS = 3_000;

  @Test
  void dataIsNullHeavyAndTheStreamCrossesNullBothWaysAndFlipsMembers() {
    PeerTasks.Task[] tasks = PeerTasks.tasks(TASKS, SEED);
    PeerTasks.Member[] members = PeerTasks.members(TASKS, SEED);
    long unassigned = Arrays.stream(tasks).filter(t -> t.assignee() == null).count();
    assertThat(unassigned).isBetween(TASKS * 55L / 100, TASKS * 65L / 100);
    assertThat(members).hasSize(30);
    assertThat(Arrays.stream(members).filter(PeerTasks.Member::active).count()).isBetween(15L, 29L);
    PeerTasks.Updates s = PeerTasks.updates(tasks, members, SEED);
    int toNull = 0, fromNull = 0, moved = 0, flips = 0, priorities = 0;
    for (int i = 0; i < 2_000; i++) {
      PeerTasks.Change c = s.next();
      if (c.isTask()) {
        PeerTasks.Task before = tasks[c.task().id()];
        assertThat(c.task()).isNotEqualTo(before);
        if (before.priority() != c.task().priority()) {
          priorities++;
          assertThat(c.task().assignee()).isEqualTo(before.assignee());
        } else if (before.assignee() == null) {
          fromNull++;
        } else if (c.task().assignee() == null) {
          toNull++;
        } else {
          moved++;
        }
      } else {
        assertThat(c.member().active()).isNotEqualTo(members[c.member().id()].active());
        flips++;
      }
      s.applied(c);
    }
    assertThat(List.of(toNull, fromNull, moved, flips, priorities)).allSatisfy(n -> assertThat(n).isGreaterThan(50));
  }

  @Test
  void liveWindowFollowsTheNaiveRecomputationThroughTheStream() {
    PeerTasks.Task[] tasks = PeerTasks.tasks(TASKS, SEED);
    PeerTasks.Member[] members = PeerTasks.members(TASKS, SEED);
    Rivulet db = Rivulet.create();
    SourceCollection ts = Tables.load(db, "tasks", W5LeftJoinQuery.TASKS,
        Arrays.stream(tasks).map(W5LeftJoinQuery::row).toArray(Row[]::new));
    SourceCollection ms = Tables.load(db, "members", W5LeftJoinQuery.MEMBERS,
        Arrays.stream(members).map(W5LeftJoinQuery::row).toArray(Row[]::new));
    LiveQuery q = db.liveQuery("W5", W5LeftJoinQuery.query(ts, ms));
    assertThat(q.rows()).hasSize(PeerTasks.LIMIT);
    // the plan windows the task rows themselves, then joins only the window's tasks with members again
    assertThat(q.stats()).extracting(dev.rivulet.engine.OperatorStats::kind)
        .contains("left-join-rows", "left-join", "map-window");
    assertThat(q.rows()).anySatisfy(r -> assertThat(r.get(3)).isNull()); // an unassigned task is shown
    assertThat(W5LeftJoinQuery.check(q.rows(), tasks, members, "hydrated")).isNull();
    PeerTasks.Updates s = PeerTasks.updates(tasks, members, SEED);
    for (int i = 0; i < 3_000; i++) {
      PeerTasks.Change c = s.next();
      if (c.isTask()) {
        ts.beginSync().write(W5LeftJoinQuery.row(c.task())).commit();
      } else {
        ms.beginSync().write(W5LeftJoinQuery.row(c.member())).commit();
      }
      s.applied(c);
      if (i % 25 == 0) {
        assertThat(W5LeftJoinQuery.check(q.rows(), tasks, members, "after update " + i)).isNull();
      }
    }
    assertThat(W5LeftJoinQuery.check(q.rows(), tasks, members, "after the stream")).isNull();
  }

  @Test
  void checkerCatchesAMemberTurnedInactiveOnlyInTheDriver() {
    PeerTasks.Task[] tasks = PeerTasks.tasks(TASKS, SEED);
    PeerTasks.Member[] members = PeerTasks.members(TASKS, SEED);
    List<Row> expected = W5LeftJoinQuery.naive(tasks, members);
    Row assigned = expected.stream().filter(r -> r.get(3) != null).findFirst().orElseThrow();
    int member = ((Number) assigned.get(3)).intValue();
    members[member] = new PeerTasks.Member(member, members[member].name(), false);
    assertThat(W5LeftJoinQuery.check(expected, tasks, members, "driver ahead"))
        .startsWith("driver ahead: row " + expected.indexOf(assigned) + " is " + assigned);
  }

  @Test
  void runnerAndOneBuildModesReportCheckedFigures() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Report out = new Report(new PrintStream(bytes, true, StandardCharsets.UTF_8), "rivulet");
    Config cfg = new Config(100, 500, 2, 200, SEED, false);
    W5Harness.run(TASKS, cfg, out);
    W5Harness.cold(TASKS, cfg, out);
    W5Harness.memory(TASKS, cfg, out);
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertThat(out.failed()).as(text).isFalse();
    assertThat(text).contains("\"metric\":\"correct\",\"value\":true", "\"metric\":\"correct_cold\",\"value\":true",
        "\"metric\":\"correct_memory\",\"value\":true", "\"mix\":\"mixed\",\"metric\":\"update_p99_us\"",
        "\"metric\":\"hydrate_cold_ms\"", "\"metric\":\"load_until_ready_cold_ms\"", "\"metric\":\"hydrate_warm_ms\"",
        "\"metric\":\"hydrate_warm_cpu_ms\"", "\"metric\":\"heap_bytes_per_row\"",
        "\"metric\":\"retained_rows\",\"value\":" + (TASKS + 30));
    assertThat(text).containsPattern("\"mix\":\"mixed\",\"metric\":\"change_events\",\"value\":[1-9]");
    for (String phase : new String[] {"load", "hydrate"}) { // what each cold phase loaded and compiled
      assertThat(text).containsPattern("\"metric\":\"" + phase + "_cold_classes\",\"value\":\\d+[,}]")
          .containsPattern("\"metric\":\"" + phase + "_cold_jit_ms\",\"value\":-?\\d");
    }
  }
}
