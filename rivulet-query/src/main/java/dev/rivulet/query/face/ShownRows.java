package dev.rivulet.query.face;

import dev.rivulet.engine.Row;
import dev.rivulet.query.Expr;
import dev.rivulet.query.compile.RowShape;
import java.util.IdentityHashMap;
import java.util.function.UnaryOperator;

/**
 * The public forms of a live query's stored rows as last published, by identity: a row published
 * as a key's new row is handed out again, not rebuilt, when it is published later as that key's
 * old row (showing a nested row is costly). Only for shapes whose showing is a pure function of the
 * stored row (see {@link #applies}). A cache, not a copy of the result: cleared when it holds
 * {@value #LIMIT} rows.
 *
 * <p>Guarded by the database's monitor (the owning live query publishes under it).
 */
public final class ShownRows {
  static final int LIMIT = 1024;
  private final IdentityHashMap<Row, Row> shown = new IdentityHashMap<>();
  private long hits;

  /** Whether rows of {@code shape} are shown the same way whenever shown: nests, none a collection. */
  public static boolean applies(RowShape shape) {
    return !shape.nests().isEmpty() && pure(shape);
  }

  private static boolean pure(RowShape shape) {
    for (RowShape.Nest n : shape.nests()) {
      if (n.mode() == Expr.IncludeMode.COLLECTION || !pure(n.child())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The public form of {@code stored}: the one last published for it, or {@code show}'s. A row
   * {@code leaving} (published as an old row) is forgotten; an entering one is remembered.
   */
  public Row of(Row stored, boolean leaving, UnaryOperator<Row> show) {
    Row p = leaving ? shown.remove(stored) : shown.get(stored);
    if (p != null) {
      hits++;
      return p;
    }
    p = show.apply(stored);
    if (!leaving) {
      if (shown.size() >= LIMIT) {
        shown.clear();
      }
      shown.put(stored, p);
    }
    return p;
  }

  /** Forgets every row (the query closed). */
  public void clear() {
    shown.clear();
  }

  /** How many public rows were handed out again (for tests). */
  public long hits() {
    return hits;
  }
}
