package dev.rivulet.query.face;

import dev.rivulet.engine.Row;
import dev.rivulet.query.Expr;
import dev.rivulet.query.compile.RowShape;
import java.util.IdentityHashMap;
import java.util.function.BinaryOperator;

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
  private Row left; // the public row last handed out as an old row, until a new row is shown
  private long hits;
  private long templated;

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
   * {@code leaving} (published as an old row) is forgotten; an entering one is remembered. An
   * entering row not remembered is shown by {@code show(stored, earlier)}, where {@code earlier}
   * is the public row last handed out as leaving (a publication shows a key's old row, then its
   * new one) or null: {@code show} may take the shown form of equal nested values from it (see
   * {@code NestedValues#show}), and must give the same row with or without it.
   */
  public Row of(Row stored, boolean leaving, BinaryOperator<Row> show) {
    Row p = leaving ? shown.remove(stored) : shown.get(stored);
    if (p != null) {
      hits++;
    } else if (leaving) {
      p = show.apply(stored, null);
    } else {
      templated += left == null ? 0 : 1;
      p = show.apply(stored, left);
      if (shown.size() >= LIMIT) {
        shown.clear();
      }
      shown.put(stored, p);
    }
    left = leaving ? p : null;
    return p;
  }

  /** Forgets every row (the query closed). */
  public void clear() {
    shown.clear();
    left = null;
  }

  /** How many new rows were shown with an earlier row to take equal nested values from (for tests). */
  public long templated() {
    return templated;
  }

  /** How many public rows were handed out again (for tests). */
  public long hits() {
    return hits;
  }
}
