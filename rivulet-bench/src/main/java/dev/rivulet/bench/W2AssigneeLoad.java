package dev.rivulet.bench;

import dev.rivulet.engine.Aggregate;
import dev.rivulet.engine.Graph;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.Input;
import dev.rivulet.engine.JoinType;
import dev.rivulet.engine.Output;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Stream;
import dev.rivulet.engine.ZSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * W2, load per assignee: how many issues each user has and their highest priority, kept current
 * under single-row updates of priority and assignee.
 *
 * <pre>
 * SELECT u.id, u.name, count(*) AS issues, max(i.priority) AS max_priority
 * FROM issues i JOIN users u ON i.assignee = u.id
 * GROUP BY u.id, u.name
 * </pre>
 *
 * <p>Graph: {@code input issues} inner-joined with {@code input users} on {@code assignee = id},
 * then {@code groupBy(users.id, users.name)} with {@code countRows} and {@code max(priority)},
 * {@code -> output per_user}. There are {@link Issues#USERS} users. Mix {@code mixed}: a random
 * row gets a new assignee (10%) or a new priority (90%). Correctness: every delta is folded into
 * a multiset, which must equal a naive per-user count and max over the driver's data, each row
 * once, after hydration and after the mix.
 */
final class W2AssigneeLoad {
  static final String NAME = "W2";
  static final String MIX = "mixed";

  private W2AssigneeLoad() {}

  static Graph graph() {
    GraphBuilder b = Graph.builder();
    Stream users = b.input("users", Issues.USER_SCHEMA);
    Stream joined = b.input("issues", Issues.SCHEMA).join(users, JoinType.INNER, "assignee", "id");
    // The join names the right side's columns itself (prefixing clashes), so take them by place.
    int width = Issues.SCHEMA.width();
    List<String> keys = List.of(joined.schema().column(width).name(), joined.schema().column(width + 1).name());
    b.output("per_user", joined.groupBy(keys, Aggregate.countRows("issues"), Aggregate.max("priority", "max_priority")));
    return b.build();
  }

  /** A graph after its first run over all users and issues, and its output folded. */
  record Hydrated(Graph graph, Input input, Output output, Map<Row, Long> result, long nanos) {}

  static Hydrated hydrate(Issues data, Row[] users) {
    Graph g = graph();
    Input in = g.input("issues");
    Input userIn = g.input("users");
    Output out = g.output("per_user");
    long t0 = System.nanoTime();
    for (Row u : users) {
      userIn.insert(u);
    }
    for (Row r : data.rows) {
      in.insert(r);
    }
    g.run();
    ZSet delta = out.delta();
    long nanos = System.nanoTime() - t0;
    Map<Row, Long> result = new HashMap<>();
    fold(result, delta);
    return new Hydrated(g, in, out, result, nanos);
  }

  static void fold(Map<Row, Long> result, ZSet delta) {
    for (int i = 0; i < delta.size(); i++) {
      if (result.merge(delta.row(i), delta.weight(i), Long::sum) == 0L) {
        result.remove(delta.row(i));
      }
    }
  }

  /** A random row gets a new assignee one time in ten, else a new priority. */
  static UpdateStream mixed(Issues data, SplittableRandom rnd) {
    return () -> {
      Row r = data.rows[rnd.nextInt(data.size())];
      return rnd.nextInt(10) == 0 ? Issues.withNewAssignee(r, rnd) : Issues.withNewPriority(r, rnd);
    };
  }

  /** The naive result: one row per user with issues, weight 1. */
  static Map<Row, Long> naive(Issues data) {
    long[] count = new long[Issues.USERS];
    long[] max = new long[Issues.USERS];
    for (Row r : data.rows) {
      int u = (int) r.getLong(Issues.ASSIGNEE);
      max[u] = count[u] == 0 ? r.getLong(Issues.PRIORITY) : Math.max(max[u], r.getLong(Issues.PRIORITY));
      count[u]++;
    }
    Map<Row, Long> out = new HashMap<>();
    for (int u = 0; u < Issues.USERS; u++) {
      if (count[u] > 0) {
        out.put(Row.of(u, Issues.userName(u), count[u], max[u]), 1L);
      }
    }
    return out;
  }

  /** Null when {@code result} is the naive result, else a description of the difference. */
  static String check(Issues data, Map<Row, Long> result, String when) {
    Map<Row, Long> expected = naive(data);
    if (expected.equals(result)) {
      return null;
    }
    for (Map.Entry<Row, Long> e : expected.entrySet()) {
      if (!e.getValue().equals(result.get(e.getKey()))) {
        return when + ": expected " + e.getKey() + " once but the folded output has it "
            + result.getOrDefault(e.getKey(), 0L) + " times (" + result.size() + " rows folded, "
            + expected.size() + " expected)";
      }
    }
    for (Map.Entry<Row, Long> e : result.entrySet()) {
      if (!expected.containsKey(e.getKey())) {
        return when + ": unexpected " + e.getKey() + " with weight " + e.getValue();
      }
    }
    return when + ": results differ";
  }

  /** Hydrates, runs the mix and checks the result, printing every figure to {@code report}. */
  static void run(int rows, RunConfig cfg, Report report) {
    Issues data = Issues.generate(rows, cfg.seed());
    Row[] users = Issues.users();
    Hydrated h = Hydration.measure(report, NAME, rows, cfg.hydrateRuns(rows), () -> hydrate(data, users), Hydrated::nanos);
    Map<Row, Long> result = h.result();
    String problem = check(data, result, "after hydration");
    if (problem == null) {
      SplittableRandom rnd = new SplittableRandom(cfg.seed() * 31 + MIX.hashCode());
      Latencies lat = UpdateLoop.run(h.graph(), h.input(), h.output(), data, mixed(data, rnd),
          cfg.warmup(), cfg.updates(), d -> fold(result, d));
      UpdateLoop.report(report, NAME, rows, MIX, lat);
      problem = check(data, result, "after the " + MIX + " mix");
    }
    report.correct(NAME, rows, problem == null, problem == null ? null : problem);
  }
}
