package dev.rivulet.query;

import dev.rivulet.engine.Graph;
import dev.rivulet.engine.Output;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.internal.EngineAccess;
import dev.rivulet.query.compile.FacadeEdge;
import dev.rivulet.query.compile.RowShape;
import dev.rivulet.query.face.NestedValues;
import dev.rivulet.query.face.TreeDiff;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Collection-facade adapter of a live query's collection includes: one {@link
 * BucketCollection} per active bucket of each edge, created when the graph's active-bucket
 * relation gains the bucket and dropped when it loses it (the graph has retracted its rows by
 * then). Each run's child-row changes go to their bucket's facade; routing stays in the graph (the
 * adapter only follows the routed-bucket relation, NULL buckets included, which are always
 * empty).
 *
 * <p>It is also the change-tree face's {@link TreeDiff.Buckets}: while change-tree subscribers
 * read the query, a run keeps each bucket's element rows as they were before the transaction's
 * first change to it, until the transaction is published (or its staged events are discarded);
 * those buckets are what it reports as {@linkplain #touched touched}, so that each face finds the
 * root rows showing them through its own index instead of reading every root row.
 *
 * <p>Guarded by the owning {@link Rivulet}'s monitor.
 */
final class IncludeFacades implements NestedValues.Facades, TreeDiff.Buckets {
  private static final EngineAccess ENGINE = EngineAccess.get();

  private final Rivulet db;
  private final String owner;
  private final List<Edge> edges = new ArrayList<>();
  private final Map<RowShape.Nest, Edge> byNest = new IdentityHashMap<>();
  private final Set<BucketCollection> touched = new LinkedHashSet<>(); // facades with staged events
  // Per edge: the element rows of each bucket this transaction changed, as before it (tree faces only).
  private final Map<RowShape.Nest, Map<Row, List<Row>>> before = new IdentityHashMap<>();
  // Per edge: element rows read while such a transaction is published (the rows no longer change).
  private final Map<RowShape.Nest, Map<Row, List<Row>>> shown = new IdentityHashMap<>();

  /**
   * This as the nested values read it. The conversions are made here rather than in {@link
   * LiveQuery}, whose class verification would otherwise load both interfaces for every query,
   * includes or not.
   */
  NestedValues.Facades nested() {
    return this;
  }

  /** This as the tree faces read it (see {@link #nested}). */
  TreeDiff.Buckets buckets() {
    return this;
  }

  /** One collection include: its outputs and the facades of its active buckets. */
  private static final class Edge {
    final FacadeEdge spec;
    final Output active;
    final Output rows;
    final Map<Row, BucketCollection> buckets = new HashMap<>();
    BucketCollection empty; // for NULL correlation values, created on first use

    Edge(FacadeEdge spec, Graph graph) {
      this.spec = spec;
      this.active = graph.output(spec.activeOutput());
      this.rows = graph.output(spec.rowsOutput());
    }
  }

  IncludeFacades(Rivulet db, String owner, List<FacadeEdge> specs, Graph graph) {
    this.db = db;
    this.owner = owner;
    for (FacadeEdge spec : specs) {
      Edge e = new Edge(spec, graph);
      edges.add(e);
      byNest.put(spec.nest(), e);
    }
  }

  boolean isEmpty() {
    return edges.isEmpty();
  }

  /**
   * Applies the last run's changes: new buckets, their rows, then the buckets that went away.
   *
   * @param keepBefore whether to keep the element rows of the buckets it changes as they were
   *     before the transaction (a change-tree subscriber reads the query)
   */
  void apply(boolean keepBefore) {
    shown.clear();
    for (Edge e : edges) {
      List<Row> gone = new ArrayList<>();
      for (int i = 0; i < ENGINE.deltaSize(e.active); i++) {
        Row bucket = ENGINE.deltaRow(e.active, i);
        if (ENGINE.deltaWeight(e.active, i) > 0) {
          e.buckets.computeIfAbsent(bucket, b -> facade(e, b));
        } else {
          gone.add(bucket);
        }
      }
      // Retractions first, so that a row replaced in this run ends as its new value.
      for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < ENGINE.deltaSize(e.rows); i++) {
          long w = ENGINE.deltaWeight(e.rows, i);
          if ((pass == 0) == (w < 0)) {
            Row row = ENGINE.deltaRow(e.rows, i);
            Row bucket = row.project(e.spec.partition());
            BucketCollection f = e.buckets.get(bucket);
            if (f != null) {
              if (keepBefore) {
                before.computeIfAbsent(e.spec.nest(), n -> new HashMap<>())
                    .computeIfAbsent(bucket, b -> elements(e, f));
              }
              f.install(f.keyOf(row), w > 0 ? row : null);
              touched.add(f);
            }
          }
        }
      }
      for (Row bucket : gone) {
        e.buckets.remove(bucket);
      }
    }
  }

  private BucketCollection facade(Edge e, Row bucket) {
    return new BucketCollection(db, owner + "." + e.spec.nest().name() + bucket, e.rows.schema(), e.spec, this);
  }

  @Override
  public Object facade(RowShape.Nest nest, Row bucket) {
    Edge e = byNest.get(nest);
    BucketCollection f = e.buckets.get(bucket);
    if (f == null) { // a bucket no parent routes to (a frozen row of a failed query shows it)
      if (e.empty == null) {
        e.empty = facade(e, bucket);
      }
      f = e.empty;
    }
    return f;
  }

  /**
   * The element rows (visible columns, then key) of the bucket a collection include's value
   * names, in the child's order: the children the change-tree face shows (caller holds the
   * monitor).
   */
  @Override
  public List<Row> rows(RowShape.Nest nest, Object value) {
    Row bucket = bucket(value);
    if (before.isEmpty()) {
      return elements(byNest.get(nest), (BucketCollection) facade(nest, bucket));
    }
    return shown.computeIfAbsent(nest, n -> new HashMap<>())
        .computeIfAbsent(bucket, b -> elements(byNest.get(nest), (BucketCollection) facade(nest, b)));
  }

  @Override
  public List<Row> before(RowShape.Nest nest, Object value) {
    List<Row> b = kept(nest, value);
    return b == null ? rows(nest, value) : b;
  }

  @Override
  public boolean changed(RowShape.Nest nest, Object value) {
    List<Row> b = kept(nest, value);
    return b != null && !b.equals(rows(nest, value));
  }

  @Override
  public boolean anyChanged() {
    return !before.isEmpty();
  }

  @Override
  public void touched(java.util.function.BiConsumer<RowShape.Nest, Row> out) {
    before.forEach((nest, kept) -> kept.keySet().forEach(bucket -> out.accept(nest, bucket)));
  }

  private List<Row> kept(RowShape.Nest nest, Object value) {
    Map<Row, List<Row>> m = before.get(nest);
    return m == null ? null : m.get(bucket(value));
  }

  private static Row bucket(Object value) {
    return ((dev.rivulet.engine.RowList) value).get(0);
  }

  private static List<Row> elements(Edge e, BucketCollection f) {
    int[] element = e.spec.element();
    List<Row> out = new ArrayList<>();
    for (Row r : f.storedRows()) {
      out.add(r.project(element));
    }
    return out;
  }

  /** Hands the facades' staged events of transaction {@code txId} to their subscribers. */
  void publish(long txId) {
    for (BucketCollection f : touched) {
      f.publish(txId);
    }
    touched.clear();
    before.clear();
    shown.clear();
  }

  /** Drops staged events (after hydration, which nobody was subscribed to). */
  void discardStaged() {
    for (BucketCollection f : touched) {
      f.discardStaged();
    }
    touched.clear();
    before.clear();
    shown.clear();
  }
}
