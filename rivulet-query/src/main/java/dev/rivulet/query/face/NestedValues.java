package dev.rivulet.query.face;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.RowList;
import dev.rivulet.engine.internal.EngineAccess;
import dev.rivulet.query.Expr;
import dev.rivulet.query.compile.RowShape;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * How users see nested values: an array include as an unmodifiable {@code List<Row>}, a one
 * include as a {@code Row} or null, each child row typed by its columns and its own includes shown
 * the same way; a collection include as its bucket's live collection; a concatenation is already
 * its string. The shown row keeps its canonical values,
 * so it still equals the stored one. Stateless.
 */
public final class NestedValues {
  private static final EngineAccess ENGINE = EngineAccess.get();

  private NestedValues() {}

  /** Finds the live collection (facade) of a collection include's bucket. */
  @FunctionalInterface
  public interface Facades {
    /** The facade of {@code nest}'s bucket with correlation values {@code bucket}. */
    Object facade(RowShape.Nest nest, Row bucket);
  }

  /** {@code typed} (a typed row of {@code shape}'s visible columns) with its includes shown. */
  public static Row show(Row typed, RowShape shape, Facades facades) {
    return shape.nests().isEmpty() ? typed : show(typed, typed.canonical(), shape, facades);
  }

  /**
   * {@link #show(Row, RowShape, Facades)} of {@code typed}, whose canonical form {@code canonical}
   * the caller has at hand.
   */
  public static Row show(Row typed, Row canonical, RowShape shape, Facades facades) {
    return show(typed, canonical, shape, facades, null);
  }

  /**
   * {@link #show(Row, Row, RowShape, Facades)}, taking the shown form of a nest's value, or of an
   * array element, from {@code earlier} (a row of {@code shape} this method showed before, or
   * null) where its canonical value is equal: showing is a function of the canonical value, so
   * the result is the same, and an edit that changes one element of a list shows only that one.
   * Only for shapes without collection includes (their shown value is a live facade).
   */
  public static Row show(Row typed, Row canonical, RowShape shape, Facades facades, Row earlier) {
    List<RowShape.Nest> nests = shape.nests();
    if (nests.isEmpty()) {
      return typed;
    }
    Row before = earlier == null || earlier.width() != canonical.width() ? null : earlier.canonical();
    int[] columns = new int[nests.size()];
    Object[] shown = new Object[columns.length];
    for (int i = 0; i < columns.length; i++) {
      RowShape.Nest n = nests.get(i);
      columns[i] = n.column();
      Object value = canonical.get(n.column());
      Object was = before == null ? null : before.get(n.column());
      if (was != null && was.equals(value)) {
        shown[i] = earlier.get(n.column()); // the same value: its shown form as it was
      } else if (was != null && n.mode() == Expr.IncludeMode.ARRAY) {
        shown[i] = array(n, (RowList) value, (RowList) was, (List<?>) earlier.get(n.column()), facades);
      } else {
        shown[i] = value(n, value, facades);
      }
    }
    return ENGINE.showing(typed, columns, shown);
  }

  /**
   * An array's shown list, each element shown as it was in {@code wasShown} when an equal element
   * of {@code was} is near its place (elements keep their order; a few may enter or leave
   * between two kept ones), otherwise shown anew.
   */
  private static List<Row> array(RowShape.Nest n, RowList list, RowList was, List<?> wasShown, Facades facades) {
    Row[] out = new Row[list.size()];
    int next = 0; // the first element of was not yet matched
    for (int i = 0; i < out.length; i++) {
      Row e = list.get(i);
      int found = -1;
      for (int k = next; k < Math.min(was.size(), next + NEAR); k++) {
        if (was.get(k).equals(e)) {
          found = k;
          break;
        }
      }
      if (found >= 0) {
        out[i] = (Row) wasShown.get(found);
        next = found + 1;
      } else {
        out[i] = element(e, n.child(), facades);
      }
    }
    return Collections.unmodifiableList(Arrays.asList(out));
  }

  /** How far past the last kept element {@link #array} looks for an equal one. */
  private static final int NEAR = 4;

  /** The user's form of include {@code n}'s canonical value. */
  static Object value(RowShape.Nest n, Object canonical, Facades facades) {
    switch (n.mode()) {
      case ARRAY: {
        RowList list = (RowList) canonical;
        Row[] out = new Row[list.size()];
        for (int i = 0; i < out.length; i++) {
          out[i] = element(list.get(i), n.child(), facades);
        }
        return Collections.unmodifiableList(Arrays.asList(out));
      }
      case ONE: {
        RowList list = (RowList) canonical;
        return list.isEmpty() ? null : element(list.get(0), n.child(), facades);
      }
      case COLLECTION:
        return facades.facade(n, ((RowList) canonical).get(0));
      default:
        return canonical;
    }
  }

  /** An element row (visible columns, then key) as users see it: its visible columns, typed. */
  public static Row element(Row element, RowShape child, Facades facades) {
    int v = child.visible().width();
    Row visible = element.width() == v ? element : element.project(range(v));
    return show(child.visible().present(visible), visible, child, facades);
  }

  private static final int[][] RANGES = new int[33][]; // 0..n-1 for small n, made once (read-only)

  static {
    for (int n = 0; n < RANGES.length; n++) {
      RANGES[n] = fill(n);
    }
  }

  /** The indexes {@code 0..n-1}; shared for small {@code n}, so never written to. */
  private static int[] range(int n) {
    return n < RANGES.length ? RANGES[n] : fill(n);
  }

  private static int[] fill(int n) {
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = i;
    }
    return out;
  }
}
