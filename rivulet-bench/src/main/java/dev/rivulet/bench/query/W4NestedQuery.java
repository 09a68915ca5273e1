package dev.rivulet.bench.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;

import dev.rivulet.bench.peers.PeerComments;
import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.bench.peers.W4State;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.Query;
import dev.rivulet.query.SourceCollection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * W4, a nested live view written with the query builder: the open-issue window, each issue with
 * its three newest comments (an array include) and its project (a singleton include).
 *
 * <pre>
 * issues i WHERE i.status = 'open' ORDER BY i.priority DESC, i.created ASC LIMIT 50
 *   SELECT i.id, i.title, i.priority, i.created,
 *     comments: [comments c WHERE c.issue_id = i.id ORDER BY c.created DESC, c.id DESC LIMIT 3
 *                SELECT c.id, c.created, c.body],
 *     project:  (projects p WHERE p.id = i.project_id SELECT p.id, p.name)
 * </pre>
 *
 * <p>The naive check recomputes the window and each visible issue's comments and project from the
 * driver's {@link W4State} with plain loops and sorts, and compares values structurally (nested
 * lists and rows rendered as plain lists), so it shares nothing with the query layer but the
 * public {@link Row}.
 */
final class W4NestedQuery {
  static final String NAME = "W4";
  static final Schema COMMENTS = Schema.parse("id INT NOT NULL, issue_id INT, created INT, body STRING");

  private W4NestedQuery() {}

  static Row row(PeerComments.Comment c) {
    return Row.of(c.id(), c.issueId(), c.created(), c.body());
  }

  static Query query(SourceCollection issues, SourceCollection projects, SourceCollection comments) {
    Query newest = Query.from("c", comments)
        .where(eq(col("c.issue_id"), col("i.id")))
        .select(Query.as("id", col("c.id")), Query.as("created", col("c.created")), Query.as("body", col("c.body")))
        .orderBy(Query.desc(col("c.created")), Query.desc(col("c.id")))
        .limit(PeerComments.LIMIT);
    Query project = Query.from("p", projects)
        .where(eq(col("p.id"), col("i.project_id")))
        .select(Query.as("id", col("p.id")), Query.as("name", col("p.name")));
    return Query.from("i", issues)
        .where(eq(col("i.status"), lit(PeerData.OPEN)))
        .select(Query.as("id", col("i.id")), Query.as("title", col("i.title")),
            Query.as("priority", col("i.priority")), Query.as("created", col("i.created")),
            Query.includeArray("comments", newest), Query.includeOne("project", project))
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.created")))
        .limit(PeerData.LIMIT);
  }

  /** The expected result, rendered: per visible issue {@code [id, title, priority, created, [[id, created, body]...], [id, name] | null]}. */
  static List<Object> naive(W4State state, PeerData.Project[] projects) {
    int[] visible = state.visible();
    Map<Integer, List<PeerComments.Comment>> byIssue = new HashMap<>();
    for (int id : visible) {
      byIssue.put(id, new ArrayList<>());
    }
    for (PeerComments.Comment c : state.comments()) {
      List<PeerComments.Comment> l = byIssue.get(c.issueId());
      if (l != null) {
        l.add(c);
      }
    }
    List<Object> out = new ArrayList<>();
    for (int id : visible) {
      PeerData.Issue r = state.issues()[id];
      List<PeerComments.Comment> cs = byIssue.get(id);
      cs.sort((a, b) -> a.created() != b.created() ? Long.compare(b.created(), a.created()) : Integer.compare(b.id(), a.id()));
      List<Object> top = new ArrayList<>();
      for (PeerComments.Comment c : cs.subList(0, Math.min(PeerComments.LIMIT, cs.size()))) {
        top.add(List.of((long) c.id(), c.created(), c.body()));
      }
      PeerData.Project p = r.projectId() < projects.length ? projects[r.projectId()] : null;
      out.add(Arrays.asList((long) r.id(), r.title(), (long) r.priority(), r.created(), top,
          p == null ? null : List.of((long) p.id(), p.name())));
    }
    return out;
  }

  /** A live result value as plain lists: rows and nested lists become lists, integers longs. */
  static Object render(Object v) {
    if (v instanceof Row r) {
      List<Object> out = new ArrayList<>(r.width());
      for (int i = 0; i < r.width(); i++) {
        out.add(render(r.get(i)));
      }
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      for (Object x : l) {
        out.add(render(x));
      }
      return out;
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    return v;
  }

  /** Null when the live rows equal the naive result in order, else the first difference. */
  static String check(List<Row> live, W4State state, PeerData.Project[] projects, String when) {
    List<Object> want = naive(state, projects);
    List<?> got = (List<?>) render(live);
    for (int i = 0; i < Math.max(want.size(), got.size()); i++) {
      Object w = i < want.size() ? want.get(i) : null;
      Object g = i < got.size() ? got.get(i) : null;
      if (w == null || !w.equals(g)) {
        return when + ": row " + i + " is " + g + ", naive has " + w + " (sizes " + got.size() + " and "
            + want.size() + ")";
      }
    }
    return null;
  }
}
