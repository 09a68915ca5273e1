package dev.rivulet.query.face;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.RowList;
import dev.rivulet.engine.internal.EngineAccess;
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
    List<RowShape.Nest> nests = shape.nests();
    if (nests.isEmpty()) {
      return typed;
    }
    int[] columns = new int[nests.size()];
    Object[] shown = new Object[columns.length];
    for (int i = 0; i < columns.length; i++) {
      RowShape.Nest n = nests.get(i);
      columns[i] = n.column();
      shown[i] = value(n, canonical.get(n.column()), facades);
    }
    return ENGINE.showing(typed, columns, shown);
  }

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
