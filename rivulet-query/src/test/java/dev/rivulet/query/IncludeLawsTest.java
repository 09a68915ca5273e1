package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Query.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.OperatorStats;
import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The normative laws of nested materialization (seed 000), one nested class per law, over the
 * schema of {@link IncludeWorld}. Stale demand (6) and initial demand (9) read their child from a
 * lazy collection whose demand the live query derives from its active buckets; of ownership (10)
 * only the Collection-facade part applies here.
 */
class IncludeLawsTest {
  private final IncludeWorld w = new IncludeWorld(7);

  private static List<Object> l(Object... xs) {
    return java.util.Arrays.asList(xs);
  }

  @SuppressWarnings("unchecked")
  private static List<Row> array(Row r, int column) {
    return (List<Row>) r.get(column);
  }

  private List<List<Object>> trees(LiveQuery q) {
    List<List<Object>> out = IncludeTrees.of(q.rows(), q.query().raw());
    if (((QueryIR.Select) q.query().raw()).orderBy().isEmpty()) {
      out.sort(Comparator.comparing(String::valueOf));
    }
    return out;
  }

  private List<List<Object>> naive(LiveQuery q) {
    List<List<Object>> out = new IncludeNaive(w.contents()).eval(q.query().raw());
    if (((QueryIR.Select) q.query().raw()).orderBy().isEmpty()) {
      out.sort(Comparator.comparing(String::valueOf));
    }
    return out;
  }

  /** Project -> issues -> comments -> author, under the given aliases. */
  private Query projectTree(String p, String i, String c, String u) {
    return projectTree(w, p, i, c, u);
  }

  static Query projectTree(IncludeWorld w, String p, String i, String c, String u) {
    Query author = Query.from(u, w.users).where(eq(col(u + ".id"), col(c + ".author")))
        .select(as("name", col(u + ".name")));
    Query comments = Query.from(c, w.comments).where(eq(col(c + ".issue"), col(i + ".id")))
        .select(as("id", col(c + ".id")), as("body", col(c + ".body")), Query.includeOne("author", author))
        .orderBy(Query.desc(col(c + ".created")), Query.asc(col(c + ".id"))).limit(2);
    Query issues = Query.from(i, w.issues).where(Exprs.and(eq(col(i + ".project"), col(p + ".id")),
            eq(col(i + ".status"), lit("open"))))
        .select(as("id", col(i + ".id")), as("title", col(i + ".title")), Query.includeArray("comments", comments),
            Query.includeConcat("bodies", Query.from(c + "b", w.comments)
                .where(eq(col(c + "b.issue"), col(i + ".id"))).select(as("body", col(c + "b.body")))
                .orderBy(Query.asc(col(c + "b.id"))), ","))
        .orderBy(Query.asc(col(i + ".id")));
    return Query.from(p, w.projects).select(as("id", col(p + ".id")), as("name", col(p + ".name")),
        Query.includeArray("issues", issues));
  }

  @Nested
  class AlphaRenaming {
    @Test
    void renamingEveryAliasChangesNoResultThroughARandomHistory() {
      for (long seed : Seeds.runs(3)) {
        IncludeWorld world = new IncludeWorld(seed);
        world.populate(4, 10, 24, 4);
        Query a = projectTree(world, "p", "i", "c", "u");
        Query b = projectTree(world, "proj", "iss", "com", "who");
        LiveQuery qa = world.db.liveQuery("a", a);
        LiveQuery qb = world.db.liveQuery("b", b);
        for (int step = 0; step < 25; step++) {
          world.step();
          List<List<Object>> ra = IncludeTrees.of(qa.rows(), a.raw());
          List<List<Object>> rb = IncludeTrees.of(qb.rows(), b.raw());
          ra.sort(Comparator.comparing(String::valueOf));
          rb.sort(Comparator.comparing(String::valueOf));
          assertThat(rb).as("seed %d step %d: %s", seed, step, world.log).isEqualTo(ra);
        }
      }
    }

    @Test
    void anAliasReusedAnywhereInTheTreeIsRejected() {
      // the comments' author reuses the root's alias two levels down
      assertThatThrownBy(() -> w.db.liveQuery("shadow", projectTree("p", "i", "c", "p")))
          .isInstanceOf(QueryException.class).hasMessageContaining("'p'");
      assertThatThrownBy(() -> w.db.liveQuery("shadow2", projectTree("p", "i", "i", "u")))
          .isInstanceOf(QueryException.class).hasMessageContaining("'i'");
    }
  }

  @Nested
  class ContributionConservation {
    @Test
    void aDistinctChildRowSupportedTwiceSurvivesOneRetractionAndGoesWithTheSecond() {
      w.issues.beginSync().write(Row.of(1, 1, "t", "open", 1, null, null)).markReady().commit();
      w.comments.beginSync().write(Row.of(10, 1, "same", 1, 1)).write(Row.of(11, 1, "same", 2, 1))
          .write(Row.of(12, 1, "other", 3, 1)).markReady().commit();
      LiveQuery q = w.db.liveQuery("q", Query.from("i", w.issues).select(as("id", col("i.id")),
          Query.includeArray("bodies", Query.from("c", w.comments).where(eq(col("c.issue"), col("i.id")))
              .select(as("body", col("c.body"))).distinct())));
      assertThat(trees(q)).isEqualTo(naive(q)).containsExactly(l(1L, l(l("other"), l("same"))));
      w.comments.beginSync().delete(Row.of(10)).commit();
      assertThat(trees(q)).isEqualTo(naive(q)).containsExactly(l(1L, l(l("other"), l("same"))));
      w.comments.beginSync().delete(Row.of(11)).commit();
      assertThat(trees(q)).isEqualTo(naive(q)).containsExactly(l(1L, l(l("other"))));
    }

    @Test
    void congruentRootContributorsCollapseKeepingMultiplicityAndIncongruentOnesAreADuplicateKey() {
      w.projects.beginSync().write(Row.of(1, "alpha", false)).markReady().commit();
      w.issues.beginSync().write(Row.of(1, 1, "a", "open", 1, null, null)).write(Row.of(2, 1, "b", "open", 1, null,
          null)).markReady().commit();
      Query byProject = Query.from("i", w.issues).select(as("project", col("i.project")),
          Query.includeOne("p", Query.from("p", w.projects).where(eq(col("p.id"), col("i.project")))
              .select(as("name", col("p.name")))));
      LiveQuery q = w.db.liveQuery("q", byProject, List.of("project"));
      assertThat(q.status()).as("two congruent contributors of key [1]; error: %s", q.error()).isEqualTo(Status.READY);
      assertThat(trees(q)).containsExactly(l(1L, l("alpha")));
      w.issues.beginSync().delete(Row.of(1)).commit();
      assertThat(trees(q)).as("supported twice, retracted once").containsExactly(l(1L, l("alpha")));
      w.issues.beginSync().delete(Row.of(2)).commit();
      assertThat(q.rows()).isEmpty();

      Query incongruent = Query.from("i", w.issues).select(as("project", col("i.project")),
          as("title", col("i.title")), Query.includeOne("p", Query.from("p", w.projects)
              .where(eq(col("p.id"), col("i.project"))).select(as("name", col("p.name")))));
      LiveQuery d = w.db.liveQuery("d", incongruent, List.of("project"));
      w.issues.beginSync().write(Row.of(3, 1, "x", "open", 1, null, null)).write(Row.of(4, 1, "y", "open", 1, null,
          null)).commit();
      assertThat(d.status()).isEqualTo(Status.ERROR);
      assertThat(d.error()).hasMessageContaining("duplicate");
      w.issues.beginSync().delete(Row.of(4)).commit();
      assertThat(d.status()).isEqualTo(Status.READY);
      assertThat(trees(d)).containsExactly(l(1L, "x", l("alpha")));
    }
  }

  @Nested
  class BatchPartition {
    @Test
    void oneAtomicBatchAndTheSameWritesSplitIntoSeveralConverge() {
      for (long seed : Seeds.runs(6)) {
        IncludeWorld atomic = new IncludeWorld(seed);
        IncludeWorld split = new IncludeWorld(seed);
        atomic.populate(4, 10, 24, 4);
        split.populate(4, 10, 24, 4);
        Random rnd = new Random(seed);
        LiveQuery qa = atomic.db.liveQuery("q", projectTree(atomic, "p", "i", "c", "u"));
        LiveQuery qs = split.db.liveQuery("q", projectTree(split, "p", "i", "c", "u"));
        SyncTransaction all = atomic.db.beginSync();
        List<Object[]> writes = new ArrayList<>();
        for (int k = 0; k < 12; k++) {
          int table = rnd.nextInt(4);
          long id = 1 + rnd.nextInt(table == IncludeWorld.COMMENT ? 30 : 12);
          Row row = rnd.nextInt(4) == 0 ? null : atomic.randomRow(table, id);
          writes.add(new Object[] {table, id, row});
        }
        for (Object[] wr : writes) {
          SourceCollection c = atomic.tables.get((Integer) wr[0]);
          if (wr[2] == null) {
            all.delete(c, Row.of(wr[1]));
          } else {
            all.write(c, (Row) wr[2]);
          }
        }
        all.commit();
        int k = 0;
        while (k < writes.size()) {
          int n = 1 + rnd.nextInt(4);
          SyncTransaction part = split.db.beginSync();
          for (int j = k; j < Math.min(writes.size(), k + n); j++) {
            Object[] wr = writes.get(j);
            SourceCollection c = split.tables.get((Integer) wr[0]);
            if (wr[2] == null) {
              part.delete(c, Row.of(wr[1]));
            } else {
              part.write(c, (Row) wr[2]);
            }
          }
          part.commit();
          k += n;
        }
        List<List<Object>> a = IncludeTrees.of(qa.rows(), qa.query().raw());
        List<List<Object>> s = IncludeTrees.of(qs.rows(), qs.query().raw());
        a.sort(Comparator.comparing(String::valueOf));
        s.sort(Comparator.comparing(String::valueOf));
        assertThat(s).as("seed %d", seed).isEqualTo(a);
        List<List<Object>> want = new IncludeNaive(atomic.contents()).eval(qa.query().raw());
        want.sort(Comparator.comparing(String::valueOf));
        assertThat(a).as("seed %d", seed).isEqualTo(want);
      }
    }
  }

  @Nested
  class RouteRelation {
    @Test
    void everyParentHoldsTheValueOfItsCurrentBucketAndParentsOfOneBucketHoldTheSame() {
      for (long seed : Seeds.runs(4)) {
        IncludeWorld world = new IncludeWorld(seed);
        world.populate(4, 12, 10, 4);
        // siblings: the issues of the issue's own project, so many parents share one bucket
        Query q = Query.from("i", world.issues).select(as("id", col("i.id")), as("project", col("i.project")),
            Query.includeArray("siblings", Query.from("j", world.issues).where(eq(col("j.project"), col("i.project")))
                .select(as("id", col("j.id"))).orderBy(Query.asc(col("j.id")))),
            Query.includeOne("owner", Query.from("p", world.projects).where(eq(col("p.id"), col("i.project")))
                .select(as("name", col("p.name")))));
        LiveQuery live = world.db.liveQuery("q", q);
        for (int step = 0; step < 30; step++) {
          world.step();
          Map<Long, Row> issues = world.visible(IncludeWorld.ISSUE);
          Map<Long, Row> projects = world.visible(IncludeWorld.PROJECT);
          Map<Object, Object> bucketValue = new HashMap<>();
          for (List<Object> parent : IncludeTrees.of(live.rows(), q.raw())) {
            Object project = parent.get(1);
            List<Object> want = new ArrayList<>();
            if (project != null) {
              issues.values().stream().filter(r -> project.equals(r.canonical().get(1)))
                  .forEach(r -> want.add(l(r.canonical().get(0))));
            }
            Row owner = project == null ? null : projects.get(project);
            assertThat(parent.get(2)).as("seed %d step %d siblings of %s", seed, step, parent.get(0)).isEqualTo(want);
            assertThat(parent.get(3)).as("seed %d step %d owner of %s", seed, step, parent.get(0))
                .isEqualTo(owner == null ? null : l(owner.canonical().get(1)));
            Object before = bucketValue.putIfAbsent(project, parent.get(2));
            assertThat(before == null || before.equals(parent.get(2))).isTrue();
          }
          assertThat(live.size()).isEqualTo(issues.size());
        }
      }
    }
  }

  @Nested
  class TotalMaterialization {
    private Query user(String u) {
      return Query.from(u, w.users).where(eq(col(u + ".id"), col("i.assignee"))).select(as("name", col(u + ".name")));
    }

    @Test
    void everyInlineCellHasItsModesEmptyValueWhenItsBucketIsEmptyOrItsCorrelationNull() {
      w.users.beginSync().write(Row.of(1, "ann")).markReady().commit();
      w.issues.beginSync().write(Row.of(1, null, "a", "open", 1, 1, null)).write(Row.of(2, null, "b", "open", 1, null,
          null)).write(Row.of(3, null, "c", "open", 1, 9, null)).markReady().commit();
      LiveQuery q = w.db.liveQuery("q", Query.from("i", w.issues).select(as("id", col("i.id")),
          Query.includeArray("arr", user("u1")), Query.includeOne("one", user("u2")),
          Query.includeConcat("txt", user("u3"), ";"))
          .orderBy(Query.asc(col("i.id"))));
      assertThat(q.rows()).hasSize(3);
      assertThat(trees(q)).containsExactly(l(1L, l(l("ann")), l("ann"), "ann"), l(2L, l(), null, ""),
          l(3L, l(), null, ""));
      Row two = q.get(Row.of(2)).orElseThrow();
      assertThat(two.get(1)).isInstanceOf(List.class);
      assertThat(two.get(3)).isEqualTo("");
      w.users.beginSync().delete(Row.of(1)).commit(); // the last child leaves: empty values, the row stays
      assertThat(trees(q)).containsExactly(l(1L, l(), null, ""), l(2L, l(), null, ""), l(3L, l(), null, ""));
      w.users.beginSync().write(Row.of(9, "zed")).commit();
      assertThat(trees(q)).isEqualTo(naive(q)).contains(l(3L, l(l("zed")), l("zed"), "zed"));
    }

    @Test
    void anEmptyCollectionCellIsAnEmptyCollectionNotAMissingValue() {
      w.issues.beginSync().write(Row.of(1, null, "a", "open", 1, null, null)).markReady().commit();
      w.users.beginSync().markReady().commit();
      LiveQuery q = w.db.liveQuery("q", Query.from("i", w.issues).select(as("id", col("i.id")),
          Query.include("who", Query.from("u", w.users).where(eq(col("u.id"), col("i.assignee"))))));
      Object cell = q.get(Row.of(1)).orElseThrow().get(1);
      assertThat(cell).isInstanceOf(LiveCollection.class);
      assertThat(((LiveCollection) cell).rows()).isEmpty();
    }
  }

  @Nested
  class NestedPropagation {
    @Test
    void aChangeThreeLevelsDownReachesTheRootRowAsOneUpdateOfItsParentOnly() {
      loadSmallTree();
      LiveQuery q = w.db.liveQuery("q", projectTree("p", "i", "c", "u"));
      List<ChangeEvent> events = new ArrayList<>();
      q.subscribe(events::addAll);
      w.users.beginSync().write(Row.of(1, "anne")).commit(); // author of comment 100, under issue 10, project 1
      assertThat(events).singleElement().satisfies(e -> {
        assertThat(e.type()).isEqualTo(ChangeEvent.Type.UPDATE);
        assertThat(e.key()).isEqualTo(Row.of(1));
        Row comment = array(array(e.value(), 2).get(0), 2).get(1);
        assertThat(((Row) comment.get(2)).get(0)).isEqualTo("anne");
      });
      assertThat(trees(q)).isEqualTo(naive(q));
      events.clear();
      w.comments.beginSync().write(Row.of(105, 11, "late", 9, 2)).commit(); // depth 2, project 1 again
      assertThat(events).singleElement().extracting(ChangeEvent::key).isEqualTo(Row.of(1));
      assertThat(trees(q)).isEqualTo(naive(q));
      events.clear();
      w.users.beginSync().write(Row.of(3, "nobody's")).commit(); // a user no comment points at
      assertThat(events).isEmpty();
    }
  }

  private void loadSmallTree() {
    w.projects.beginSync().write(Row.of(1, "alpha", false)).write(Row.of(2, "beta", false)).markReady().commit();
    w.issues.beginSync().write(Row.of(10, 1, "x", "open", 1, 1, 1.0)).write(Row.of(11, 1, "y", "open", 2, 2, 2.5))
        .write(Row.of(12, 2, "z", "open", 1, null, null)).markReady().commit();
    w.comments.beginSync().write(Row.of(100, 10, "hello", 1, 1)).write(Row.of(101, 10, "again", 2, 2))
        .write(Row.of(102, 12, "there", 1, 2)).markReady().commit();
    w.users.beginSync().write(Row.of(1, "ann")).write(Row.of(2, "bob")).write(Row.of(3, "cy")).markReady().commit();
  }

  @Nested
  class Publication {
    @Test
    void insideTheListenerReadsEventsAndDownstreamQueriesSeeTheSameCompleteResult() {
      loadSmallTree();
      LiveQuery q = w.db.liveQuery("q", projectTree("p", "i", "c", "u"));
      LiveQuery down = w.db.liveQuery("down", Query.from("n", q).select(as("id", col("n.id")),
          as("name", col("n.name"))));
      List<String> problems = new ArrayList<>();
      int[] calls = {0};
      q.subscribe(events -> {
        calls[0]++;
        List<List<Object>> now = trees(q);
        List<List<Object>> want = naive(q);
        if (!now.equals(want)) {
          problems.add("rows in the listener " + now + " but the committed state gives " + want);
        }
        for (ChangeEvent e : events) {
          Row read = q.get(e.key()).orElse(null);
          if (e.type() != ChangeEvent.Type.DELETE && !IncludeTrees.of(e.value(), (QueryIR.Select) q.query().raw())
              .equals(IncludeTrees.of(read, (QueryIR.Select) q.query().raw()))) {
            problems.add("event " + e + " but get() reads " + read);
          }
        }
        List<String> upstream = new ArrayList<>();
        for (Row r : q.rows()) {
          upstream.add(r.get(0) + ":" + r.get(1));
        }
        List<String> downstream = new ArrayList<>();
        for (Row r : down.rows()) {
          downstream.add(r.get(0) + ":" + r.get(1));
        }
        upstream.sort(null);
        downstream.sort(null);
        if (!upstream.equals(downstream)) {
          problems.add("the downstream query reads " + downstream + " while the nested one has " + upstream);
        }
      });
      w.db.beginSync().write(w.users, Row.of(2, "bo")).write(w.comments, Row.of(103, 12, "new", 5, 1))
          .write(w.projects, Row.of(3, "gamma", false)).commit();
      w.comments.beginSync().write(Row.of(101, 12, "again", 2, 2)).commit(); // a comment moves between projects
      assertThat(problems).isEmpty();
      assertThat(calls[0]).isEqualTo(2);
    }

    @Test
    void nestedRowsAreTypedAsTheirColumns() {
      loadSmallTree();
      LiveQuery q = w.db.liveQuery("q", Query.from("p", w.projects).select(as("id", col("p.id")),
          Query.includeArray("issues", Query.from("i", w.issues).where(eq(col("i.project"), col("p.id")))
              .select(as("id", col("i.id")), as("estimate", col("i.estimate"))).orderBy(Query.asc(col("i.id"))))));
      Row alpha = q.get(Row.of(1)).orElseThrow();
      assertThat(array(alpha, 1).get(0).get(1)).isEqualTo(1.0); // a DOUBLE column's canonical 1 shows as 1.0
      assertThat(array(alpha, 1).get(1).get(1)).isEqualTo(2.5);
      assertThat(array(alpha, 1).get(0).get(0)).isEqualTo(10L);
    }
  }

  @Nested
  class Ownership {
    private LiveQuery siblings() {
      return w.db.liveQuery("q", Query.from("i", w.issues).select(as("id", col("i.id")),
          Query.include("siblings", Query.from("j", w.issues).where(eq(col("j.project"), col("i.project")))
              .select(as("id", col("j.id"))).orderBy(Query.asc(col("j.id"))))));
    }

    private LiveCollection facade(LiveQuery q, long issue) {
      return (LiveCollection) q.get(Row.of(issue)).orElseThrow().get(1);
    }

    @Test
    void parentsOfOneBucketShareOneFacadeStableWhileRoutedAndANewOneForALaterInterval() {
      loadSmallTree();
      LiveQuery q = siblings();
      LiveCollection one = facade(q, 10);
      assertThat(facade(q, 11)).isSameAs(one);
      assertThat(facade(q, 12)).isNotSameAs(one);
      assertThat(one.rows()).containsExactly(Row.of(10), Row.of(11));
      w.issues.beginSync().write(Row.of(13, 1, "w", "open", 1, null, null)).commit(); // the bucket changes
      assertThat(facade(q, 10)).isSameAs(one);
      assertThat(facade(q, 13)).isSameAs(one);
      assertThat(one.rows()).containsExactly(Row.of(10), Row.of(11), Row.of(13));
      // every parent leaves bucket 1: the facade is released with its rows retracted
      w.issues.beginSync().write(Row.of(10, 2, "x", "open", 1, 1, 1.0)).write(Row.of(11, 2, "y", "open", 2, 2, 2.5))
          .write(Row.of(13, 2, "w", "open", 1, null, null)).commit();
      assertThat(one.rows()).isEmpty();
      assertThat(facade(q, 10)).isSameAs(facade(q, 12));
      w.issues.beginSync().write(Row.of(10, 1, "x", "open", 1, 1, 1.0)).commit(); // a later active interval
      LiveCollection again = facade(q, 10);
      assertThat(again).isNotSameAs(one);
      assertThat(again.rows()).containsExactly(Row.of(10));
      assertThat(one.rows()).isEmpty();
    }

    /** Found by the include oracle (seed -9054397592827283426 of the collection-mode test). */
    @Test
    void theEmptyBucketOfANullCorrelationAlsoGetsANewFacadeForALaterActiveInterval() {
      loadSmallTree(); // issue 12 has no assignee
      LiveQuery q = w.db.liveQuery("q", Query.from("i", w.issues).select(as("id", col("i.id")),
          Query.include("who", Query.from("u", w.users).where(eq(col("u.id"), col("i.assignee"))))));
      LiveCollection none = facade(q, 12);
      assertThat(none.rows()).isEmpty();
      w.issues.beginSync().write(Row.of(12, 2, "z", "open", 1, 1, null)).commit(); // no NULL assignee left
      assertThat(facade(q, 12)).isSameAs(facade(q, 10));
      w.issues.beginSync().write(Row.of(11, 1, "y", "open", 2, null, 2.5)).commit(); // a NULL one again
      assertThat(facade(q, 11)).as("the facade of a later active interval").isNotSameAs(none);
      assertThat(facade(q, 11).rows()).isEmpty();
    }

    @Test
    void aFacadePublishesItsChangesWithTheTransaction() {
      loadSmallTree();
      LiveQuery q = siblings();
      LiveCollection one = facade(q, 10);
      List<List<ChangeEvent>> seen = new ArrayList<>();
      List<Integer> rootSizeInListener = new ArrayList<>();
      one.subscribe(events -> {
        seen.add(events);
        rootSizeInListener.add(q.size());
      });
      w.issues.beginSync().write(Row.of(14, 1, "v", "open", 1, null, null)).commit();
      assertThat(seen).singleElement().satisfies(events -> assertThat(events).singleElement()
          .extracting(ChangeEvent::type).isEqualTo(ChangeEvent.Type.INSERT));
      assertThat(rootSizeInListener).containsExactly(4);
    }
  }

  @Nested
  class Work {
    /**
     * Rows examined by {@code q}'s graph when one comment is inserted under a hidden issue: hidden
     * by the root's where, or ({@code byWindow}) only by the root's window.
     */
    private long examinedByAHiddenInsert(int commentCount, boolean byWindow) {
      IncludeWorld world = new IncludeWorld(1);
      world.projects.beginSync().write(Row.of(1, "alpha", false)).markReady().commit();
      SourceCollection.SyncBatch is = world.issues.beginSync();
      for (int i = 1; i <= 1_000; i++) {
        is.write(Row.of(i, 1, "t", i % 10 == 0 ? "closed" : "open", i % 7, null, null));
      }
      is.markReady().commit();
      SourceCollection.SyncBatch cs = world.comments.beginSync();
      for (int c = 1; c <= commentCount; c++) {
        cs.write(Row.of(c, 1 + c % 1_000, "b", c % 100, null));
      }
      cs.markReady().commit();
      world.users.beginSync().markReady().commit();
      Query root = Query.from("i", world.issues).where(eq(col("i.status"), lit("open")))
          .select(as("id", col("i.id")), Query.includeArray("last", Query.from("c", world.comments)
              .where(eq(col("c.issue"), col("i.id"))).select(as("body", col("c.body")))
              .orderBy(Query.desc(col("c.created")), Query.asc(col("c.id"))).limit(3)));
      if (byWindow) { // issue 20 is open here but outside the 50 rows of the window (lowest ids first)
        root = Query.from("i", world.issues).select(as("id", col("i.id")), Query.includeArray("last",
            Query.from("c", world.comments).where(eq(col("c.issue"), col("i.id"))).select(as("body", col("c.body")))
                .orderBy(Query.desc(col("c.created")), Query.asc(col("c.id"))).limit(3)))
            .orderBy(Query.desc(col("i.id"))).limit(50);
      }
      LiveQuery q = world.db.liveQuery("q", root);
      long before = examined(q);
      world.comments.beginSync().write(Row.of(commentCount + 1, 20, "hidden", 1, null)).commit(); // issue 20 is closed
      return examined(q) - before;
    }

    private long examined(LiveQuery q) {
      return q.stats().stream().mapToLong(OperatorStats::examined).sum();
    }

    @Test
    void aChildInsertUnderAHiddenParentExaminesASmallConstantIndependentOfTableSize() {
      long small = examinedByAHiddenInsert(1_000, false);
      long large = examinedByAHiddenInsert(100_000, false);
      assertThat(small).as("rows examined with 1,000 comments").isLessThanOrEqualTo(32);
      assertThat(large).as("rows examined with 100,000 comments (1,000: %d)", small).isLessThanOrEqualTo(small);
    }
  }

  @Nested
  class WorkOfALazyChild {
    /**
     * Rows the lazy source reads to serve the last three comments of 200 issues ({@code
     * windowed}: of the five the root's window shows).
     */
    private long scanned(int commentsPerIssue, boolean windowed) {
      IncludeWorld world = new IncludeWorld(1);
      MemoryLazySource source = new MemoryLazySource(world.comments.schema(), List.of("id"));
      long id = 1;
      for (int issue = 1; issue <= 200; issue++) {
        for (int k = 0; k < commentsPerIssue; k++) {
          source.put(Row.of(id++, issue, "b", k, null));
        }
      }
      source.index(List.of("issue"), List.of(SubsetRequest.Order.desc("created").withNullsFirst())); // the child's order
      LazyCollection lazy = world.db.lazyCollection("lazy", world.comments.schema(), List.of("id"), source);
      SourceCollection.SyncBatch is = world.issues.beginSync();
      for (int i = 1; i <= 200; i++) {
        is.write(Row.of(i, 1, "t", "open", 1, null, null));
      }
      is.markReady().commit();
      Query root = Query.from("i", world.issues)
          .select(as("id", col("i.id")), Query.includeArray("last", Query.from("c", lazy)
              .where(eq(col("c.issue"), col("i.id"))).select(as("created", col("c.created")))
              .orderBy(Query.desc(col("c.created"))).limit(3)))
          .orderBy(Query.asc(col("i.id")));
      LiveQuery q = world.db.liveQuery("q", windowed ? root.limit(5) : root);
      assertThat(q.status()).isEqualTo(Status.READY);
      assertThat(array(q.rows().get(0), 1)).extracting(r -> r.get(0))
          .containsExactly((long) commentsPerIssue - 1, (long) commentsPerIssue - 2, (long) commentsPerIssue - 3);
      return source.rowsScanned();
    }

    @Test
    void theSourceReadsTheDemandedBucketsRowsThroughItsIndexAndNothingElse() {
      // The child's order and limit go down into the request (the graph keeps its limit too, and
      // a window left short is refilled): each demanded bucket reads its last three comments, by index.
      assertThat(scanned(10, false)).as("rows read for 200 shown issues x their last 3 of 10 comments")
          .isEqualTo(600);
    }

    @Test
    void onlyTheBucketsOfParentsInTheRootWindowAreLoaded() {
      // at most the five shown issues' 10 comments each, whether or not the child's limit is pushed down
      assertThat(scanned(10, true)).as("rows read for the 5 issues the window shows, of 200").isLessThanOrEqualTo(50);
    }
  }

  @Nested
  class WorkOutsideAWindow {
    @Test
    void aChildInsertUnderAParentOutsideTheRootWindowExaminesASmallConstantIndependentOfTableSize() {
      Work work = new Work();
      long small = work.examinedByAHiddenInsert(1_000, true);
      long large = work.examinedByAHiddenInsert(100_000, true);
      assertThat(small).as("rows examined with 1,000 comments").isLessThanOrEqualTo(32);
      assertThat(large).as("rows examined with 100,000 comments (1,000: %d)", small).isLessThanOrEqualTo(small);
    }
  }

  /** Issues (a sync collection) with the comments of each open one from a lazy collection. */
  private final class LazyFixture {
    final dev.rivulet.engine.Schema schema = dev.rivulet.engine.Schema.parse("id INT NOT NULL, issue INT, body STRING");
    final ControlledLazySource source;
    final LazyCollection comments;
    final LiveQuery q;

    LazyFixture(long... openIssues) {
      List<Row> table = new ArrayList<>();
      for (long issue : new long[] {10, 11, 12, 99}) {
        table.add(Row.of(issue * 10, issue, "a" + issue));
        table.add(Row.of(issue * 10 + 1, issue, "b" + issue));
      }
      source = new ControlledLazySource(schema, table);
      comments = w.db.lazyCollection("lazyComments", schema, List.of("id"), source);
      SourceCollection.SyncBatch b = w.issues.beginSync();
      for (long id : new long[] {10, 11, 12}) {
        boolean open = java.util.Arrays.stream(openIssues).anyMatch(x -> x == id);
        b.write(Row.of(id, 1, "t", open ? "open" : "closed", 1, null, null));
      }
      b.markReady().commit();
      q = w.db.liveQuery("q", Query.from("i", w.issues).where(eq(col("i.status"), lit("open")))
          .select(as("id", col("i.id")), Query.includeArray("cs", Query.from("c", comments)
              .where(eq(col("c.issue"), col("i.id"))).select(as("id", col("c.id")), as("body", col("c.body")))
              .orderBy(Query.asc(col("c.id"))))));
    }

    void status(long issue, String status) {
      w.issues.beginSync().write(Row.of(issue, 1, "t", status, 1, null, null)).commit();
    }

    /** The issue ids a call asked for. */
    java.util.Set<Object> values(ControlledLazySource.Call c) {
      java.util.Set<Object> out = new java.util.TreeSet<>();
      c.request().values().forEach(v -> out.add(v.get(0)));
      return out;
    }

    /** The issue ids the calls not cancelled ask for. */
    java.util.Set<Object> demanded() {
      java.util.Set<Object> out = new java.util.TreeSet<>();
      source.calls().stream().filter(c -> !c.cancelled()).forEach(c -> out.addAll(values(c)));
      return out;
    }

    List<List<Object>> naive() {
      List<List<Object>> out = new IncludeNaive(w.contents()).eval(q.query().raw());
      out.sort(Comparator.comparing(String::valueOf));
      return out;
    }
  }

  @Nested
  class StaleDemand {
    @Test
    void aLoadWhoseBucketLeftIsCancelledAndSettlingLateItInstallsNothingNorSettlesReadiness() {
      LazyFixture f = new LazyFixture(10);
      assertThat(f.source.calls()).as("the live query demands its open issue's comments").isNotEmpty();
      ControlledLazySource.Call first = f.source.call(0);
      assertThat(f.values(first)).containsExactly(10L);
      f.status(10, "closed"); // the bucket loses its last route
      assertThat(first.cancelled()).as("the load of a bucket no longer active is cancelled").isTrue();
      assertThat(f.q.ready()).as("obsolete demand does not block initial readiness").isDone();
      f.status(10, "open"); // active again: a new generation
      List<ControlledLazySource.Call> calls = f.source.calls();
      assertThat(calls).hasSizeGreaterThan(1);
      ControlledLazySource.Call second = calls.get(calls.size() - 1);
      assertThat(second.cancelled()).isFalse();
      assertThat(f.values(second)).contains(10L);

      f.source.complete(0); // the obsolete load settles anyway (the source ignores its cancellation)
      assertThat(f.comments.rows()).as("rows of a cancelled load").isEmpty();
      assertThat(trees(f.q)).containsExactly(l(10L, l()));
      // (initial readiness already came while nothing was demanded; later ones are the status)
      assertThat(f.comments.status()).as("an obsolete load cannot settle readiness").isEqualTo(Status.LOADING);
      assertThat(f.q.status()).isEqualTo(Status.LOADING);

      f.source.complete(calls.size() - 1);
      assertThat(f.comments.status()).isEqualTo(Status.READY);
      assertThat(f.q.status()).isEqualTo(Status.READY);
      assertThat(trees(f.q)).isEqualTo(f.naive()).containsExactly(l(10L, l(l(100L, "a10"), l(101L, "b10"))));
    }
  }

  @Nested
  class InitialDemand {
    @Test
    void readyOnceEveryReachableBucketIsCoveredWhileObsoleteDemandDoesNotBlockIt() {
      LazyFixture f = new LazyFixture(10, 11, 12);
      assertThat(f.demanded()).as("every active bucket is demanded, and only those").containsExactly(10L, 11L, 12L);
      assertThat(f.q.ready()).isNotDone();
      // pending demand does not hide the parents: each shows its current (empty) value
      assertThat(trees(f.q)).containsExactly(l(10L, l()), l(11L, l()), l(12L, l()));
      f.status(12, "closed"); // 12's demand is no longer reachable
      boolean progress = true;
      while (progress) { // settle every current load except one that only 12 needed
        progress = false;
        List<ControlledLazySource.Call> calls = f.source.calls();
        for (int i = 0; i < calls.size(); i++) {
          ControlledLazySource.Call c = calls.get(i);
          if (!c.future().isDone() && !c.cancelled() && !f.values(c).equals(java.util.Set.of(12L))) {
            assertThat(f.q.ready()).as("ready before every reachable bucket is covered").isNotDone();
            f.source.complete(i);
            progress = true;
          }
        }
      }
      assertThat(f.q.ready()).as("obsolete demand does not block readiness").isDone();
      assertThat(f.q.status()).isEqualTo(Status.READY);
      assertThat(trees(f.q)).isEqualTo(f.naive())
          .containsExactly(l(10L, l(l(100L, "a10"), l(101L, "b10"))), l(11L, l(l(110L, "a11"), l(111L, "b11"))));
    }

    @Test
    void anEmptyOuterRelationDemandsNothingAndIsReady() {
      LazyFixture f = new LazyFixture();
      assertThat(f.source.calls()).isEmpty();
      assertThat(f.q.rows()).isEmpty();
      assertThat(f.q.ready()).as("no reachable demand: ready at once").isDone();
      assertThat(f.q.status()).isEqualTo(Status.READY);
    }
  }

  @Nested
  class Space {
    /** Rows retained by a query whose {@code parents} parents all route to one bucket of 50 rows. */
    private long retained(int parents) {
      IncludeWorld world = new IncludeWorld(1);
      SourceCollection.SyncBatch is = world.issues.beginSync();
      for (int i = 1; i <= parents; i++) {
        is.write(Row.of(i, 1, "t", "open", 1, null, null));
      }
      is.markReady().commit();
      SourceCollection.SyncBatch cs = world.comments.beginSync();
      for (int c = 1; c <= 50; c++) {
        cs.write(Row.of(c, 1, "b" + c, c, null)); // comment.issue used as the project: all in bucket 1
      }
      cs.markReady().commit();
      LiveQuery q = world.db.liveQuery("q", Query.from("i", world.issues).select(as("id", col("i.id")),
          Query.includeArray("notes", Query.from("c", world.comments).where(eq(col("c.issue"), col("i.project")))
              .select(as("body", col("c.body"))).orderBy(Query.asc(col("c.id"))))));
      assertThat(array(q.get(Row.of(parents)).orElseThrow(), 1)).hasSize(50);
      return q.stats().stream().mapToLong(OperatorStats::retained).sum();
    }

    @Test
    void stateGrowsWithParentsByASmallConstantNotByTheirSharedBucketsRows() {
      long r100 = retained(100);
      long r400 = retained(400);
      double perParent = (r400 - r100) / 300.0;
      assertThat(perParent).as("retained rows per added parent (100 parents: %d, 400: %d)", r100, r400)
          .isLessThan(25); // a copy of the bucket per parent would be 50 or more
    }
  }
}
