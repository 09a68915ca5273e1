package dev.rivulet.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The rows a keyed join emits, in one of four shapes fixed when the join is made:
 * <ul>
 *   <li>wide: a pair is the left row followed by the right row, and a row without a match is
 *       extended with nulls for the other side (an anti join emits its left rows as they are);
 *   <li>left rows ({@link Stream#leftJoinLeftRows}): every output row is the left input's own row;
 *   <li>setting ({@link Stream#leftJoinSetting}): the left row with one column set to the right
 *       row's value, or to a fixed value without a right row or for a null value;
 *   <li>keeping ({@link Stream#innerJoinKeeping}, inner joins only): some columns of the left row
 *       followed by some of the right row.
 * </ul>
 *
 * <p>Immutable.
 */
final class JoinRows {
  private final String name;
  private final JoinType type;
  private final boolean leftRows;
  private final int setColumn; // setting: the left row's column set to the right value, else -1
  private final int valueColumn; // setting: the right rows' column whose value it is set to
  private final Object unmatchedValue; // setting: the value without a right row (or for a null value)
  private final int[] keepLeft; // keeping: the left columns kept, else null
  private final int[] keepRight; // keeping: the right columns kept
  private final Row leftNulls;
  private final Row rightNulls;
  private final Schema schema;

  private JoinRows(String name, JoinType type, Schema l, Schema r, Schema schema, boolean leftRows, int setColumn,
      int valueColumn, Object unmatchedValue, int[] keepLeft, int[] keepRight) {
    this.name = name;
    this.type = type;
    this.leftRows = leftRows;
    this.setColumn = setColumn;
    this.valueColumn = valueColumn;
    this.unmatchedValue = unmatchedValue;
    this.keepLeft = keepLeft;
    this.keepRight = keepRight;
    this.leftNulls = Row.nulls(l.width());
    this.rightNulls = Row.nulls(r.width());
    this.schema = schema;
  }

  /** Wide rows of a join of {@code type}. */
  static JoinRows wide(JoinType type, Schema l, Schema r) {
    Schema out = type == JoinType.ANTI ? l
        : (type == JoinType.RIGHT || type == JoinType.FULL ? l.nullable() : l)
            .concat(r, "right_", type == JoinType.LEFT || type == JoinType.FULL);
    return new JoinRows(type.name().toLowerCase(Locale.ROOT) + "-join", type, l, r, out, false, -1, -1, null,
        null, null);
  }

  /** A left join's own left rows. */
  static JoinRows leftRows(Schema l, Schema r) {
    return new JoinRows("left-join-rows", JoinType.LEFT, l, r, l, true, -1, -1, null, null, null);
  }

  /** A left join's left rows with {@code setColumn} set to the right rows' {@code valueColumn} (canonical values). */
  static JoinRows setting(Schema l, Schema r, int setColumn, int valueColumn, Object unmatched) {
    return new JoinRows("left-join-setting", JoinType.LEFT, l, r, l, false, setColumn, valueColumn, unmatched,
        null, null);
  }

  /** An inner join's {@code keepLeft} columns of the left row followed by its {@code keepRight} of the right row. */
  static JoinRows keeping(Schema l, Schema r, int[] keepLeft, int[] keepRight) {
    Schema out = kept(l, keepLeft).concat(kept(r, keepRight), "right_", false);
    return new JoinRows("inner-join-keeping", JoinType.INNER, l, r, out, false, -1, -1, null, keepLeft, keepRight);
  }

  private static Schema kept(Schema s, int[] columns) {
    List<Column> out = new ArrayList<>(columns.length);
    for (int c : columns) {
      out.add(s.column(c));
    }
    return Schema.of(out);
  }

  /** The join operator's name for this shape. */
  String name() {
    return name;
  }

  JoinType type() {
    return type;
  }

  /** The emitted rows' schema. */
  Schema schema() {
    return schema;
  }

  /** Whether every output row is the left input's own row. */
  boolean leftRows() {
    return leftRows;
  }

  /** Whether this is a plain wide shape (no columns chosen). */
  boolean wide() {
    return !leftRows && setColumn < 0 && keepLeft == null;
  }

  /** A right row of all nulls (what a left row without a match is paired with, for a filter's test). */
  Row rightNulls() {
    return rightNulls;
  }

  /** The output row of left row {@code l} paired with right row {@code r}. */
  Row pair(Row l, Row r) {
    if (leftRows) {
      return l;
    }
    if (setColumn >= 0) {
      Object v = r.canonicalAt(valueColumn);
      return l.withCanonical(setColumn, v == null ? unmatchedValue : v);
    }
    if (keepLeft == null) {
      return l.concat(r);
    }
    return Row.pick(l, keepLeft, r, keepRight);
  }

  /** The output row of left row {@code l} without a matching right row. */
  Row leftAlone(Row l) {
    if (type == JoinType.ANTI || leftRows) {
      return l;
    }
    return setColumn >= 0 ? l.withCanonical(setColumn, unmatchedValue) : l.concat(rightNulls);
  }

  /** The output row of right row {@code r} without a matching left row. */
  Row rightAlone(Row r) {
    return leftNulls.concat(r);
  }
}
