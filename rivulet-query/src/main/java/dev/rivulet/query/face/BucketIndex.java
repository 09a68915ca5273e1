package dev.rivulet.query.face;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.RowList;
import dev.rivulet.query.compile.RowShape;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * For one change-tree subscriber: which root rows show each collection bucket, directly (the
 * row's own collection relationships, or those of element rows the row holds) or through the rows
 * of other buckets (a collection inside a collection), so that a changed bucket leads to the root
 * rows whose trees it changes without reading the other root rows.
 *
 * <p>An entry per shown bucket holds the root rows showing it directly, the buckets whose rows
 * show it (counted), and how many of those hold it; a bucket's entry exists while something holds
 * it, and then also indexes the buckets its own rows show (read when it is first held, and again
 * by {@link #refresh} when its rows changed). The face keeps it current as root rows enter and
 * leave ({@link #addRoot}, {@link #removeRoot}) and as buckets change.
 *
 * <p>Owned by its {@link TreeFace} and guarded by the same monitor (the database's).
 */
final class BucketIndex {
  /** One shown bucket. Identity-equal. */
  static final class Entry {
    final RowShape.Nest nest;
    final Object value; // as a row holds it: what the buckets' rows are read by
    final TreeDiff elements;
    final Set<Row> roots = new HashSet<>();
    final Map<Entry, Integer> parents = new HashMap<>();
    int holders;
    List<Entry> shows = List.of(); // the buckets its rows show, as last indexed

    Entry(RowShape.Nest nest, Object value, TreeDiff elements) {
      this.nest = nest;
      this.value = value;
      this.elements = elements;
    }
  }

  private final TreeDiff root;
  private final Map<RowShape.Nest, Map<Row, Entry>> entries = new IdentityHashMap<>();

  BucketIndex(TreeDiff root) {
    this.root = root;
  }

  /** The entry of a bucket something shows, or null. */
  Entry find(RowShape.Nest nest, Row bucket) {
    Map<Row, Entry> m = entries.get(nest);
    return m == null ? null : m.get(bucket);
  }

  /** A root row entered: it holds the buckets it shows. */
  void addRoot(Row row) {
    for (Entry e : shown(root, row)) {
      if (e.roots.add(row)) {
        hold(e);
      }
    }
  }

  /** A root row left: it no longer holds the buckets it showed. */
  void removeRoot(Row row) {
    for (Entry e : shown(root, row)) {
      if (e.roots.remove(row)) {
        release(e);
      }
    }
  }

  /** A held bucket's rows changed: the buckets they show are indexed again (new ones first). */
  void refresh(Entry e) {
    if (e.holders == 0 || !e.elements.showsBuckets()) {
      return;
    }
    List<Entry> old = e.shows;
    e.shows = elementsShown(e);
    for (Entry c : e.shows) {
      c.parents.merge(e, 1, Integer::sum);
      hold(c);
    }
    unshow(e, old);
  }

  /** The root rows showing any of {@code changed}, directly or through other buckets' rows. */
  Set<Row> rootsShowing(List<Entry> changed) {
    Set<Entry> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    ArrayDeque<Entry> todo = new ArrayDeque<>();
    Set<Row> out = new HashSet<>();
    for (Entry e : changed) {
      if (seen.add(e)) {
        todo.add(e);
      }
    }
    while (!todo.isEmpty()) {
      Entry e = todo.poll();
      out.addAll(e.roots);
      for (Entry p : e.parents.keySet()) {
        if (seen.add(p)) {
          todo.add(p);
        }
      }
    }
    return out;
  }

  /** How many buckets are indexed (for tests and counters). */
  int size() {
    int n = 0;
    for (Map<Row, Entry> m : entries.values()) {
      n += m.size();
    }
    return n;
  }

  private void hold(Entry e) {
    if (e.holders++ == 0 && e.elements.showsBuckets()) {
      e.shows = elementsShown(e);
      for (Entry c : e.shows) {
        c.parents.merge(e, 1, Integer::sum);
        hold(c);
      }
    }
  }

  private void release(Entry e) {
    if (--e.holders > 0) {
      return;
    }
    List<Entry> shows = e.shows;
    e.shows = List.of();
    unshow(e, shows);
    Map<Row, Entry> m = entries.get(e.nest);
    m.remove(bucket(e.value));
    if (m.isEmpty()) {
      entries.remove(e.nest);
    }
  }

  /** Takes back what {@code parent}'s rows showed as {@code shows}. */
  private void unshow(Entry parent, List<Entry> shows) {
    for (Entry c : shows) {
      c.parents.merge(parent, -1, (a, b) -> a + b == 0 ? null : a + b);
      release(c);
    }
  }

  /** The buckets the rows of {@code e}'s bucket show now, a bucket once per row showing it. */
  private List<Entry> elementsShown(Entry e) {
    List<Entry> out = new ArrayList<>();
    for (Row kid : e.elements.buckets().rows(e.nest, e.value)) {
      out.addAll(shown(e.elements, kid));
    }
    return out;
  }

  /** The distinct buckets a row of {@code diff}'s shape shows directly, their entries made when new. */
  private List<Entry> shown(TreeDiff diff, Row row) {
    List<Entry> out = new ArrayList<>(2);
    diff.shownBuckets(row, (nest, value, elements) -> {
      Entry e = entries.computeIfAbsent(nest, n -> new HashMap<>())
          .computeIfAbsent(bucket(value), b -> new Entry(nest, value, elements));
      if (!out.contains(e)) {
        out.add(e);
      }
    });
    return out;
  }

  /** A collection relationship's value is a one-element list holding the bucket's key. */
  static Row bucket(Object value) {
    return ((RowList) value).get(0);
  }
}
