package dev.rivulet.query.face;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.RowList;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.CaughtChange;
import dev.rivulet.query.CaughtNode;
import dev.rivulet.query.Expr;
import dev.rivulet.query.compile.RowShape;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The change-tree face's view of the rows of one {@link RowShape}: a stored row as a {@link
 * CaughtNode} (its scalar columns, typed by {@link Schema#present}, and its relationships built
 * recursively from the element rows of its includes), and the {@link CaughtChange}s that take one
 * row, or one ordered list of element rows, to another.
 *
 * <p>A collection relationship's children are its bucket's rows, kept outside the stored row
 * ({@link Buckets}), so a stored row stands for two trees while a transaction is published: the
 * one the subscribers have (its buckets as before the transaction) and the new one. A diff reads
 * {@code before} rows in the first and {@code after} rows in the second, so a row whose stored
 * value did not change still changes when a bucket it shows, at any depth, did ({@link
 * #showsChangedBucket}).
 *
 * <p>An {@link CaughtChange.Edit} or {@link CaughtChange.Child} names its row by value, so it is
 * emitted only where no sibling in the list as it stands shows the same scalar row; otherwise the
 * row is replaced (a Remove then an Add at its index), which a consumer can place exactly.
 *
 * <p>Immutable; its {@link Buckets} are read under the database's monitor (the face's capture and
 * publications run under it).
 */
public final class TreeDiff {
  /**
   * Where the element rows of a {@code COLLECTION} relationship come from. Its stored value is
   * only the bucket's key; the bucket's rows are kept outside the row, so until a source for them
   * is plugged in ({@link #NONE}) such a relationship shows no children.
   */
  public interface Buckets {
    /** The element rows (in the child's order) of the bucket that {@code value} names, now. */
    List<Row> rows(RowShape.Nest nest, Object value);

    /**
     * The bucket's element rows as the change-tree subscribers have them: as before the
     * transaction being published, else (between transactions) as now.
     */
    default List<Row> before(RowShape.Nest nest, Object value) {
      return rows(nest, value);
    }

    /** Whether the bucket's rows {@link #before} differ from its rows now. */
    default boolean changed(RowShape.Nest nest, Object value) {
      return false;
    }

    /** Whether any bucket may have changed in the transaction being published. */
    default boolean anyChanged() {
      return false;
    }

    /**
     * Calls {@code out} with each bucket (its include, its key) whose rows the transaction being
     * published touched: a superset of those that {@link #changed}.
     */
    default void touched(BiConsumer<RowShape.Nest, Row> out) {}

    /** No bucket rows: every collection relationship is empty. */
    Buckets NONE = (nest, value) -> List.of();
  }

  private final RowShape shape;
  private final int[] scalars;
  private final Schema scalarSchema;
  private final RowShape.Nest[] relationships;
  private final TreeDiff[] children; // per relationship slot
  private final Buckets buckets;
  private final boolean showsBuckets; // whether a collection relationship is here or below

  public TreeDiff(RowShape shape) {
    this(shape, Buckets.NONE);
  }

  public TreeDiff(RowShape shape, Buckets buckets) {
    this.shape = shape;
    this.buckets = buckets;
    this.scalars = shape.scalarColumns();
    List<Column> cols = new ArrayList<>(scalars.length);
    for (int c : scalars) {
      cols.add(shape.visible().column(c));
    }
    this.scalarSchema = Schema.of(cols);
    this.relationships = shape.relationships().toArray(new RowShape.Nest[0]);
    this.children = new TreeDiff[relationships.length];
    boolean shows = false;
    for (int i = 0; i < relationships.length; i++) {
      children[i] = new TreeDiff(relationships[i].child(), buckets);
      shows |= relationships[i].mode() == Expr.IncludeMode.COLLECTION || children[i].showsBuckets;
    }
    this.showsBuckets = shows;
  }

  /** Whether the rows of this shape have no relationships. */
  public boolean flat() {
    return relationships.length == 0;
  }

  /** The scalar columns of a stored row, canonical: what names it in an Edit or Child. */
  public Row scalarKey(Row stored) {
    return stored.project(scalars);
  }

  /** The scalar columns of a stored row as users see them. */
  public Row scalars(Row stored) {
    return scalarSchema.present(stored.project(scalars));
  }

  /** A stored row with its relationships, every slot present (empty when it has no children). */
  public CaughtNode node(Row stored) {
    return node(stored, false);
  }

  /**
   * A stored row's node as the subscribers have it while a transaction is published ({@code old}:
   * its buckets as before the transaction) or as it is now.
   */
  public CaughtNode node(Row stored, boolean old) {
    Row row = scalars(stored);
    if (relationships.length == 0) {
      return new CaughtNode(row);
    }
    TreeMap<Integer, List<CaughtNode>> rels = new TreeMap<>();
    for (int slot = 0; slot < relationships.length; slot++) {
      List<Row> kids = children(slot, stored, old);
      List<CaughtNode> nodes = new ArrayList<>(kids.size());
      for (Row kid : kids) {
        nodes.add(children[slot].node(kid, old));
      }
      rels.put(slot, nodes);
    }
    return new CaughtNode(row, rels);
  }

  /** Whether rows of this shape show buckets and some bucket changed in the transaction being published. */
  public boolean bucketsChanged() {
    return showsBuckets && buckets.anyChanged();
  }

  /**
   * Whether a stored row shows, at any depth, a bucket whose rows changed in the transaction
   * being published: then its tree changed though its stored value may not have.
   */
  public boolean showsChangedBucket(Row stored) {
    if (!bucketsChanged()) {
      return false;
    }
    for (int slot = 0; slot < relationships.length; slot++) {
      RowShape.Nest nest = relationships[slot];
      if (nest.mode() == Expr.IncludeMode.COLLECTION) {
        Object value = stored.get(nest.column());
        if (value != null && buckets.changed(nest, value)) {
          return true;
        }
      }
      if (children[slot].showsBuckets) {
        for (Row kid : children(slot, stored, false)) {
          if (children[slot].showsChangedBucket(kid)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Receives a bucket a row shows: its include, its value in the row, and the diff of its element rows. */
  interface ShownBucket {
    void accept(RowShape.Nest nest, Object value, TreeDiff elements);
  }

  /**
   * Calls {@code out} with each collection bucket a stored row shows directly: through its own
   * collection relationships and, recursively, those of the element rows of its other
   * relationships (held in the row), not those of the buckets' own rows. A bucket shown twice is
   * reported twice.
   */
  void shownBuckets(Row stored, ShownBucket out) {
    if (!showsBuckets) {
      return;
    }
    for (int slot = 0; slot < relationships.length; slot++) {
      RowShape.Nest nest = relationships[slot];
      Object value = stored.get(nest.column());
      if (value == null) {
        continue;
      }
      if (nest.mode() == Expr.IncludeMode.COLLECTION) {
        out.accept(nest, value, children[slot]);
      } else if (children[slot].showsBuckets) {
        for (Row kid : children(slot, stored, false)) {
          children[slot].shownBuckets(kid, out);
        }
      }
    }
  }

  /** Whether rows of this shape show collection buckets (here or below). */
  boolean showsBuckets() {
    return showsBuckets;
  }

  /** The buckets' rows this diff reads. */
  Buckets buckets() {
    return buckets;
  }

  /** The element rows of relationship {@code slot} of a stored row, in the child's order. */
  List<Row> children(int slot, Row stored, boolean old) {
    RowShape.Nest nest = relationships[slot];
    Object value = stored.get(nest.column());
    if (nest.mode() == Expr.IncludeMode.COLLECTION) {
      return value == null ? List.of() : old ? buckets.before(nest, value) : buckets.rows(nest, value);
    }
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof RowList list)) {
      throw new IllegalStateException("include '" + nest.name() + "' holds " + value + ", not a list of rows");
    }
    return list;
  }

  /**
   * Appends the changes that take a row from {@code before} to {@code after} (same key, same
   * position {@code index}, -1 in an unordered list): nothing when they show the same tree
   * ({@code before} read as the subscribers have it, {@code after} as now); an Edit when
   * only the scalar columns changed; a Child per change inside each changed relationship when only
   * relationships changed; a Remove then an Add at {@code index} when both changed, or when the
   * row is not {@code unique} (another sibling shows its scalar row).
   */
  public void row(Row before, Row after, int index, boolean unique, List<CaughtChange> out) {
    if (unchanged(before, after)) {
      return;
    }
    boolean scalarsChanged = !scalarKey(before).equals(scalarKey(after));
    boolean relationshipsChanged = relationshipsChanged(before, after);
    if (!scalarsChanged && !relationshipsChanged) {
      return;
    }
    if (!unique || scalarsChanged && relationshipsChanged) {
      out.add(new CaughtChange.Remove(node(before, true), index));
      out.add(new CaughtChange.Add(node(after), index));
    } else {
      inPlace(before, after, scalarsChanged, out);
    }
  }

  /** Whether {@code before} (as the subscribers have it) and {@code after} (now) show the same tree. */
  private boolean unchanged(Row before, Row after) {
    return before.equals(after) && !showsChangedBucket(after);
  }

  /** Whether the trees of {@code before} (as the subscribers have it) and {@code after} (now) are equal. */
  private boolean sameTree(Row before, Row after) {
    return unchanged(before, after)
        || scalarKey(before).equals(scalarKey(after)) && !relationshipsChanged(before, after);
  }

  private boolean relationshipsChanged(Row before, Row after) {
    for (int slot = 0; slot < relationships.length; slot++) {
      List<Row> b = children(slot, before, true);
      List<Row> a = children(slot, after, false);
      if (b.size() != a.size()) {
        return true;
      }
      for (int i = 0; i < b.size(); i++) {
        if (!children[slot].sameTree(b.get(i), a.get(i))) {
          return true;
        }
      }
    }
    return false;
  }

  /** An Edit, or (the scalar columns equal) the Child changes of each changed relationship. */
  private void inPlace(Row before, Row after, boolean scalarsChanged, List<CaughtChange> out) {
    if (scalarsChanged) {
      out.add(new CaughtChange.Edit(scalars(before), scalars(after)));
      return;
    }
    Row shown = scalars(before);
    List<CaughtChange> inner = new ArrayList<>();
    for (int slot = 0; slot < relationships.length; slot++) {
      inner.clear();
      children[slot].list(children(slot, before, true), children(slot, after, false), inner);
      for (CaughtChange c : inner) {
        out.add(new CaughtChange.Child(shown, slot, c));
      }
    }
  }

  /**
   * Appends the changes that take the ordered element rows {@code before} (as the subscribers have
   * them) to {@code after} (now), children matched by key. Children whose keys keep their
   * relative order (a longest increasing subsequence of old positions) stay; the others are
   * removed (by old index descending) and added (by new index ascending). Between the two, each
   * staying child that changed gets an Edit or Child changes ({@link #row}), unless its scalar
   * columns and relationships both changed or another staying child shows its scalar row at that
   * moment: then it is removed and added too.
   */
  public void list(List<Row> before, List<Row> after, List<CaughtChange> out) {
    Map<Row, Integer> oldIndex = new HashMap<>();
    for (int i = 0; i < before.size(); i++) {
      oldIndex.put(key(before.get(i)), i);
    }
    int[] seq = new int[after.size()]; // old index of each new child's key, or -1
    for (int j = 0; j < seq.length; j++) {
      Integer i = oldIndex.get(key(after.get(j)));
      seq[j] = i == null ? -1 : i;
    }
    boolean[] stays = WindowSteps.longestIncreasing(seq);
    Map<Row, Integer> shown = new HashMap<>(); // scalar rows of the staying children as they stand
    for (int j = 0; j < seq.length; j++) {
      if (stays[j]) {
        shown.merge(scalarKey(before.get(seq[j])), 1, Integer::sum);
      }
    }
    boolean[] edited = new boolean[seq.length];
    for (int j = 0; j < seq.length; j++) {
      Row b = stays[j] ? before.get(seq[j]) : null;
      if (b == null || unchanged(b, after.get(j))) {
        continue;
      }
      Row sb = scalarKey(b);
      Row sa = scalarKey(after.get(j));
      boolean scalarsChanged = !sb.equals(sa);
      boolean relationshipsChanged = relationshipsChanged(b, after.get(j));
      if (!scalarsChanged && !relationshipsChanged) {
        continue;
      }
      shown.merge(sb, -1, Integer::sum);
      if (shown.get(sb) > 0 || scalarsChanged && relationshipsChanged) {
        stays[j] = false; // replaced: it leaves with the removed children, comes back with the added
      } else {
        edited[j] = true;
        shown.merge(sa, 1, Integer::sum);
      }
    }
    boolean[] staysOld = new boolean[before.size()];
    for (int j = 0; j < seq.length; j++) {
      if (stays[j]) {
        staysOld[seq[j]] = true;
      }
    }
    for (int i = before.size() - 1; i >= 0; i--) {
      if (!staysOld[i]) {
        out.add(new CaughtChange.Remove(node(before.get(i), true), i));
      }
    }
    for (int j = 0; j < seq.length; j++) {
      if (edited[j]) {
        Row b = before.get(seq[j]);
        inPlace(b, after.get(j), !scalarKey(b).equals(scalarKey(after.get(j))), out);
      }
    }
    for (int j = 0; j < seq.length; j++) {
      if (!stays[j]) {
        out.add(new CaughtChange.Add(node(after.get(j)), j));
      }
    }
  }

  private Row key(Row stored) {
    return stored.project(shape.keys());
  }
}
