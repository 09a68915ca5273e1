package dev.rivulet.query;

import static dev.rivulet.query.Exprs.and;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The change-tree face on nested queries (project -> open issues, array, top 3 by priority ->
 * comments, array, last 2; issue -> its project, one, and its name as a concat): random sync
 * transactions that insert, update, delete and re-parent; after each, folding the hydration and
 * every batch (callback and sink) gives the tree that the query's rows show, and each batch is one
 * transaction. Values come from tiny domains so that siblings often show the same row. The same
 * with collection includes over {@link IncludeWorld}'s histories, optimistic transactions and
 * rollbacks included.
 */
class NestedTreeFaceTest {
  private static final String[] WORDS = {"a", "b", "c"};

  @Test
  void foldedTreeBatchesShowTheNestedResultAfterEveryTransaction() {
    int batches = 0;
    int childChanges = 0;
    for (long seed : Seeds.runs(40)) {
      Random r = new Random(seed);
      Rivulet db = Rivulet.create();
      SourceCollection projects = db.collection("projects", Schema.parse("id INT NOT NULL, name STRING"), List.of("id"));
      SourceCollection issues = db.collection("issues",
          Schema.parse("id INT NOT NULL, project INT, status STRING, priority INT, title STRING"), List.of("id"));
      SourceCollection comments = db.collection("comments",
          Schema.parse("id INT NOT NULL, issue INT, created INT, body STRING, score DOUBLE"), List.of("id"));
      boolean ordered = r.nextBoolean();
      LiveQuery q = db.liveQuery("q", query(projects, issues, comments, ordered));
      List<TreeBatch> seen = new ArrayList<>();
      q.subscribeTree(SubscribeOptions.sync(), seen::add);
      ChangeTreeSink sink = q.changeTreeSink(1000);
      List<String> errors = new ArrayList<>();
      TreeFold fold = TreeFold.hydrate(ordered, seen.get(0), errors, "callback");
      TreeFold sinkFold = TreeFold.hydrate(ordered, sink.hydrate(), errors, "sink");
      for (int step = 0; step < 30; step++) {
        long tx = db.lastTxId();
        SyncTransaction t = db.beginSync();
        for (int w = 1 + r.nextInt(3); w > 0; w--) {
          write(r, t, projects, issues, comments);
        }
        t.commit();
        String at = "seed " + seed + " step " + step + " (ordered " + ordered + ")";
        for (int i = 1; i < seen.size(); i++) {
          TreeBatch b = seen.get(i);
          assertThat(b.txId()).as(at).isEqualTo(tx + 1);
          assertThat(b.hydrated()).as(at).isFalse();
          for (CaughtChange c : b.changes()) {
            assertThat(fold.apply(c)).as("%s: %s", at, b.changes()).isNull();
            childChanges += c instanceof CaughtChange.Child ? 1 : 0;
          }
          batches++;
        }
        assertThat(seen.size()).as(at).isLessThanOrEqualTo(2);
        seen.subList(1, seen.size()).clear();
        List<TreeBatch> taken = sink.take();
        assertThat(taken.size()).as(at).isLessThanOrEqualTo(1);
        for (TreeBatch b : taken) {
          assertThat(b.txId()).as(at).isEqualTo(tx + 1);
          b.changes().forEach(c -> assertThat(sinkFold.apply(c)).as(at).isNull());
        }
        assertThat(errors).as(at).isEmpty();
        List<CaughtNode> want = expected(q.rows());
        for (TreeFold f : List.of(fold, sinkFold)) {
          if (ordered) {
            assertThat(f.nodes()).as(at).isEqualTo(want);
          } else {
            assertThat(counts(f.nodes())).as(at).isEqualTo(counts(want));
          }
        }
      }
    }
    assertThat(batches).isGreaterThan(300);
    assertThat(childChanges).isGreaterThan(100);
  }

  @Test
  void collectionIncludesShowTheirBucketsRowsAndTheirFacadesHaveTheirOwnTreeFace() {
    Rivulet db = Rivulet.create();
    SourceCollection issues = db.collection("issues", Schema.parse("id INT NOT NULL, project INT, title STRING"),
        List.of("id"));
    issues.beginSync().write(Row.of(10, 1, "a")).write(Row.of(11, 1, "b")).markReady().commit();
    Query siblings = Query.from("s", issues).where(eq(col("s.project"), col("i.project")))
        .select(Query.as("title", col("s.title"))).orderBy(Query.asc(col("s.id")));
    LiveQuery q = db.liveQuery("q", Query.from("i", issues)
        .select(Query.as("id", col("i.id")), Query.include("siblings", siblings)).orderBy(Query.asc(col("i.id"))));
    TreeBatch h = q.changeTreeSink(10).hydrate();
    // the bucket's rows come from the collection's facade (TreeDiff.Buckets), not from the parent's row
    List<CaughtNode> both = List.of(new CaughtNode(Row.of("a")), new CaughtNode(Row.of("b")));
    assertThat(h.changes()).containsExactly(
        new CaughtChange.Add(new CaughtNode(Row.of(10L), new TreeMap<>(Map.of(0, both))), 0),
        new CaughtChange.Add(new CaughtNode(Row.of(11L), new TreeMap<>(Map.of(0, both))), 1));
    LiveCollection bucket = (LiveCollection) q.rows().get(0).get(1);
    ChangeTreeSink sink = bucket.changeTreeSink(10);
    List<String> errors = new ArrayList<>();
    TreeFold fold = TreeFold.hydrate(false, sink.hydrate(), errors, "bucket");
    issues.beginSync().write(Row.of(12, 1, "c")).write(Row.of(10, 1, "a2")).commit();
    for (TreeBatch b : sink.take()) {
      b.changes().forEach(c -> assertThat(fold.apply(c)).isNull());
    }
    assertThat(errors).isEmpty();
    assertThat(counts(fold.nodes())).isEqualTo(counts(bucket.rows().stream().map(CaughtNode::new).toList()));
  }

  /**
   * Collection includes (issue -> the issues of its project, each with its comments; project ->
   * its issues, each with its comments and assignee), the roots showing few distinct scalar rows
   * so that parents often look alike, over {@link IncludeWorld}'s random histories (re-parents,
   * re-keys, deletes, optimistic transactions confirmed or rolled back): after every transaction
   * the callback's and the sink's folds, and a new subscriber's hydration, equal the tree the
   * query's rows show (a collection slot holding its bucket's rows).
   */
  @Test
  void collectionIncludesFoldToTheirBucketsRowsThroughRandomHistories() {
    int throughCollections = 0;
    int nested = 0;
    for (long seed : Seeds.runs(12)) {
      IncludeWorld w = new IncludeWorld(seed);
      Random r = new Random(seed ^ 0x7EE);
      w.populate(4, 10, 24, 4);
      boolean ordered = r.nextBoolean();
      Map<String, LiveQuery> live = new java.util.LinkedHashMap<>();
      Query siblings = collections(w, r, ordered);
      live.put("siblings", w.db.liveQuery("siblings", siblings));
      live.put("projects", w.db.liveQuery("projects", projectsWithCollections(w, r, ordered)));
      Map<String, TreeFold> folds = new java.util.LinkedHashMap<>();
      Map<String, List<TreeBatch>> seen = new java.util.LinkedHashMap<>();
      Map<String, ChangeTreeSink> sinks = new java.util.LinkedHashMap<>();
      List<String> errors = new ArrayList<>();
      for (Map.Entry<String, LiveQuery> e : live.entrySet()) {
        List<TreeBatch> batches = new ArrayList<>();
        e.getValue().subscribeTree(SubscribeOptions.sync(), batches::add);
        seen.put(e.getKey(), batches);
        folds.put(e.getKey(), TreeFold.hydrate(ordered, batches.remove(0), errors, e.getKey()));
        ChangeTreeSink sink = e.getValue().changeTreeSink(1000);
        sinks.put(e.getKey(), sink);
        folds.put(e.getKey() + " sink", TreeFold.hydrate(ordered, sink.hydrate(), errors, e.getKey() + " sink"));
      }
      for (int step = 0; step < 30; step++) {
        long tx = w.db.lastTxId();
        w.step();
        for (Map.Entry<String, LiveQuery> e : live.entrySet()) {
          String at = "seed " + seed + " (RIVULET_SEED replays) step " + step + " " + e.getKey() + " (ordered "
              + ordered + ") after " + w.log;
          QueryIR.Select ir = (QueryIR.Select) e.getValue().query().raw();
          List<TreeBatch> callback = seen.get(e.getKey());
          List<TreeBatch> taken = sinks.get(e.getKey()).take();
          assertThat(callback).as(at).hasSizeLessThanOrEqualTo(1).isEqualTo(taken);
          for (TreeBatch b : callback) {
            assertThat(b.txId()).as(at).isEqualTo(tx + 1).isEqualTo(w.db.lastTxId());
            for (CaughtChange c : b.changes()) {
              assertThat(folds.get(e.getKey()).apply(c)).as("%s: %s", at, b.changes()).isNull();
              assertThat(folds.get(e.getKey() + " sink").apply(c)).as(at).isNull();
              int crossed = IncludeTrees.collectionsCrossed(c, ir);
              throughCollections += crossed > 0 ? 1 : 0;
              nested += crossed > 1 ? 1 : 0;
            }
          }
          callback.clear();
          assertThat(errors).as(at).isEmpty();
          List<CaughtNode> want = IncludeTrees.nodes(IncludeTrees.of(e.getValue().rows(), ir), ir);
          List<CaughtNode> fresh;
          try (ChangeTreeSink newcomer = e.getValue().changeTreeSink(1)) {
            fresh = TreeFold.hydrate(ordered, newcomer.hydrate(), errors, at).nodes();
          }
          for (List<CaughtNode> got : List.of(folds.get(e.getKey()).nodes(), folds.get(e.getKey() + " sink").nodes(),
              fresh)) {
            if (ordered) {
              assertThat(got).as(at).isEqualTo(want);
            } else {
              assertThat(counts(got)).as(at).isEqualTo(counts(want));
            }
          }
        }
      }
    }
    assertThat(throughCollections).as("Child changes through a collection slot").isGreaterThan(80);
    assertThat(nested).as("Child changes through two collection slots").isGreaterThan(15);
  }

  /**
   * Issues showing only their status, each with the issues of its project (a bucket shared by
   * siblings) by priority, each with its comments by creation (a collection inside a collection).
   */
  private static Query collections(IncludeWorld w, Random r, boolean ordered) {
    Query comments = Query.from("c", w.comments).where(eq(col("c.issue"), col("s.id")))
        .select(Query.as("body", col("c.body"))).orderBy(Query.desc(col("c.created")), Query.asc(col("c.id")));
    Query siblings = Query.from("s", w.issues).where(eq(col("s.project"), col("r.project")))
        .select(Query.as("title", col("s.title")), Query.include("comments", r.nextBoolean() ? comments
            : comments.limit(2)))
        .orderBy(Query.desc(col("s.priority")), Query.asc(col("s.id")));
    Query root = Query.from("r", w.issues).select(Query.as("status", col("r.status")),
        Query.include("siblings", siblings));
    return ordered ? root.orderBy(Query.asc(col("r.status")), Query.asc(col("r.id"))) : root;
  }

  /**
   * Projects by name, each with its issues (a collection, windowed or not) with their comments (a
   * collection), assignee (one) and comment bodies (array).
   */
  private static Query projectsWithCollections(IncludeWorld w, Random r, boolean ordered) {
    Query comments = Query.from("c", w.comments).where(eq(col("c.issue"), col("i.id")))
        .select(Query.as("body", col("c.body")), Query.as("created", col("c.created")))
        .orderBy(Query.asc(col("c.created")), Query.asc(col("c.id")));
    Query assignee = Query.from("u", w.users).where(eq(col("u.id"), col("i.assignee")))
        .select(Query.as("name", col("u.name")));
    Query bodies = Query.from("a", w.comments).where(eq(col("a.issue"), col("i.id")))
        .select(Query.as("body", col("a.body"))).orderBy(Query.asc(col("a.id")));
    Query issues = Query.from("i", w.issues).where(eq(col("i.project"), col("p.id")))
        .select(Query.as("title", col("i.title")), Query.include("comments", comments),
            Query.includeOne("assignee", assignee), Query.includeArray("bodies", bodies))
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id")));
    Query root = Query.from("p", w.projects).select(Query.as("name", col("p.name")),
        Query.include("issues", r.nextBoolean() ? issues : issues.limit(2)));
    return ordered ? root.orderBy(Query.asc(col("p.name")), Query.asc(col("p.id"))).limit(3) : root;
  }

  private static Query query(SourceCollection projects, SourceCollection issues, SourceCollection comments,
      boolean ordered) {
    Query last = Query.from("c", comments).where(eq(col("c.issue"), col("i.id")))
        .select(Query.as("body", col("c.body")), Query.as("score", col("c.score")))
        .orderBy(Query.desc(col("c.created"))).limit(2);
    Query names = Query.from("n", projects).where(eq(col("n.id"), col("i.project")))
        .select(Query.as("name", col("n.name")));
    Query owner = Query.from("o", projects).where(eq(col("o.id"), col("i.project")))
        .select(Query.as("name", col("o.name")));
    Query open = Query.from("i", issues).where(and(eq(col("i.project"), col("p.id")), eq(col("i.status"), lit("open"))))
        .select(Query.as("title", col("i.title")), Query.includeArray("comments", last),
            Query.includeConcat("names", names, ","), Query.includeOne("owner", owner))
        .orderBy(Query.desc(col("i.priority"))).limit(3);
    Query root = Query.from("p", projects)
        .select(Query.as("name", col("p.name")), Query.includeArray("issues", open));
    return ordered ? root.orderBy(Query.asc(col("p.name"))) : root;
  }

  private static void write(Random r, SyncTransaction t, SourceCollection projects, SourceCollection issues,
      SourceCollection comments) {
    int k = r.nextInt(10);
    if (k == 0) {
      t.write(projects, Row.of(1 + r.nextInt(3), WORDS[r.nextInt(3)]));
    } else if (k < 4) {
      int id = 10 + r.nextInt(6);
      if (r.nextInt(5) == 0) {
        t.delete(issues, Row.of(id));
      } else {
        t.write(issues, Row.of(id, r.nextInt(5) == 0 ? null : 1 + r.nextInt(3), r.nextInt(4) == 0 ? "closed" : "open",
            r.nextInt(4), WORDS[r.nextInt(3)]));
      }
    } else {
      int id = 100 + r.nextInt(12);
      if (r.nextInt(5) == 0) {
        t.delete(comments, Row.of(id));
      } else {
        t.write(comments, Row.of(id, 10 + r.nextInt(6), r.nextInt(4), WORDS[r.nextInt(2)],
            r.nextInt(4) == 0 ? 1.0 : 0.0));
      }
    }
  }

  /** The tree the query's rows show: scalars (name; title, names) and relationships in order. */
  @SuppressWarnings("unchecked")
  private static List<CaughtNode> expected(List<Row> rows) {
    List<CaughtNode> out = new ArrayList<>();
    for (Row p : rows) {
      List<CaughtNode> issueNodes = new ArrayList<>();
      for (Row i : (List<Row>) p.get(1)) {
        List<CaughtNode> commentNodes = new ArrayList<>();
        for (Row c : (List<Row>) i.get(1)) {
          commentNodes.add(new CaughtNode(c));
        }
        Row owner = (Row) i.get(3);
        TreeMap<Integer, List<CaughtNode>> rels = new TreeMap<>();
        rels.put(0, commentNodes);
        rels.put(1, owner == null ? List.of() : List.of(new CaughtNode(owner)));
        issueNodes.add(new CaughtNode(Row.of(i.get(0), i.get(2)), rels));
      }
      out.add(new CaughtNode(Row.of(p.get(0)), new TreeMap<>(Map.of(0, issueNodes))));
    }
    return out;
  }

  private static Map<CaughtNode, Integer> counts(List<CaughtNode> nodes) {
    Map<CaughtNode, Integer> out = new HashMap<>();
    nodes.forEach(n -> out.merge(n, 1, Integer::sum));
    return out;
  }
}
