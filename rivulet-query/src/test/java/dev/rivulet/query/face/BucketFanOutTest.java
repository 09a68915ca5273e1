package dev.rivulet.query.face;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.RowList;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.CaughtChange;
import dev.rivulet.query.CaughtChange.Add;
import dev.rivulet.query.CaughtChange.Child;
import dev.rivulet.query.CaughtChange.Remove;
import dev.rivulet.query.CaughtNode;
import dev.rivulet.query.Cursor;
import dev.rivulet.query.Expr;
import dev.rivulet.query.WindowDelta;
import dev.rivulet.query.compile.RowShape;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * The change-tree face's fan-out of a bucket's change: only the root rows showing the bucket are
 * read ({@link TreeFace#rowsExamined}), however many other roots there are, and their Child
 * changes (or replacements, placed at their indexes) come in the root's order, also after roots
 * entered and left. Root: teams (name, members: a collection of people (who), key hidden).
 */
class BucketFanOutTest {
  static final RowShape PERSON = new RowShape(Schema.of(Column.of("who", ColumnType.STRING)), new int[] {1}, true,
      List.of());
  static final RowShape TEAM = new RowShape(
      Schema.of(Column.of("name", ColumnType.STRING), Column.of("members", ColumnType.ANY)), new int[] {2}, true,
      List.of(new RowShape.Nest(1, "members", Expr.IncludeMode.COLLECTION, PERSON)));
  static final RowShape.Nest MEMBERS = TEAM.nests().get(0);

  /** Bucket rows now, and as before the transaction being published for those it touched. */
  static final class Buckets implements TreeDiff.Buckets {
    final Map<Row, List<Row>> now = new HashMap<>();
    final Map<Row, List<Row>> before = new HashMap<>();

    @Override
    public List<Row> rows(RowShape.Nest nest, Object value) {
      return now.getOrDefault(((RowList) value).get(0), List.of());
    }

    @Override
    public List<Row> before(RowShape.Nest nest, Object value) {
      List<Row> b = before.get(((RowList) value).get(0));
      return b == null ? rows(nest, value) : b;
    }

    @Override
    public boolean changed(RowShape.Nest nest, Object value) {
      return !before(nest, value).equals(rows(nest, value));
    }

    @Override
    public boolean anyChanged() {
      return !before.isEmpty();
    }

    @Override
    public void touched(BiConsumer<RowShape.Nest, Row> out) {
      before.keySet().forEach(b -> out.accept(MEMBERS, b));
    }

    /** The transaction adds {@code person} to bucket {@code group}. */
    void join(long group, Row person) {
      Row b = Row.of(group);
      List<Row> rows = now.getOrDefault(b, List.of());
      before.putIfAbsent(b, rows);
      List<Row> next = new ArrayList<>(rows);
      next.add(person);
      now.put(b, next);
    }
  }

  final Buckets buckets = new Buckets();
  final TreeFace face = new TreeFace(new TreeDiff(TEAM, buckets), true);
  long tx;

  static Row team(long id, String name, long group) {
    return Row.of(name, RowList.of(Row.of(group)), id);
  }

  static CaughtNode person(String who) {
    return new CaughtNode(Row.of(who));
  }

  static CaughtNode team(String name, CaughtNode... members) {
    return new CaughtNode(Row.of(name), new TreeMap<>(Map.of(0, List.of(members))));
  }

  /** Subscribes to {@code others} teams of their own groups, with teams 1 and 2 of group 7 at indexes 3 and 5. */
  void subscribe(int others) {
    List<Row> root = new ArrayList<>();
    for (int i = 0; i < others + 2; i++) {
      root.add(team(1000 + i, "other" + i, 1000 + i));
    }
    root.set(3, team(1, "one", 7));
    root.set(5, team(2, "two", 7));
    buckets.now.put(Row.of(7L), List.of(Row.of("ann", 100L)));
    face.capture(root.toArray(new Row[0]));
  }

  List<CaughtChange> publish(List<StoredChange> stored, List<WindowDelta> steps) {
    List<CaughtChange> out = face.changes(new Publication(++tx, List.of(), null, stored, steps));
    buckets.before.clear();
    return out;
  }

  List<CaughtChange> bobJoinsGroup7() {
    buckets.join(7, Row.of("bob", 101L));
    return publish(List.of(), List.of());
  }

  @Test
  void aBucketChangeReadsOnlyTheRootRowsShowingIt() {
    subscribe(10);
    assertThat(bobJoinsGroup7()).containsExactly(new Child(Row.of("one"), 0, new Add(person("bob"), 1)),
        new Child(Row.of("two"), 0, new Add(person("bob"), 1)));
    assertThat(face.rowsExamined()).isEqualTo(2);

    BucketFanOutTest big = new BucketFanOutTest();
    big.subscribe(10_000);
    assertThat(big.bobJoinsGroup7()).isEqualTo(List.of(new Child(Row.of("one"), 0, new Add(person("bob"), 1)),
        new Child(Row.of("two"), 0, new Add(person("bob"), 1))));
    assertThat(big.face.rowsExamined()).as("the same two rows, beside a thousand times more others").isEqualTo(2);
  }

  @Test
  void rootsThatEnterAndLeaveJoinAndLeaveTheFanOutInTheRootsOrder() {
    subscribe(10);
    Row three = team(3, "three", 7);
    Row one = team(1, "one", 7);
    Row other0 = team(1000, "other0", 1000);
    // team 3 enters at 0 (showing group 7), team 1 (index 3, then 4) leaves, other0 (index 0, then 1) leaves
    List<CaughtChange> changes = publish(
        List.of(new StoredChange(Row.of(3L), null, three), new StoredChange(Row.of(1L), one, null),
            new StoredChange(Row.of(1000L), other0, null)),
        List.of(step(WindowDelta.Op.ENTER, three, 3, -1, 0), step(WindowDelta.Op.LEAVE, one, 1, 4, -1),
            step(WindowDelta.Op.LEAVE, other0, 1000, 1, -1)));
    assertThat(changes).containsExactly(new Add(team("three", person("ann")), 0), new Remove(team("one",
        person("ann")), 4), new Remove(team("other0"), 1));
    // now: three (0), other1, other2, other4, two (4), ...
    assertThat(bobJoinsGroup7()).containsExactly(new Child(Row.of("three"), 0, new Add(person("bob"), 1)),
        new Child(Row.of("two"), 0, new Add(person("bob"), 1)));
    assertThat(face.rowsExamined()).isEqualTo(2);
  }

  @Test
  void rowsThatLookAlikeAreReplacedAtTheirIndexes() {
    List<Row> root = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      root.add(team(1000 + i, "other" + i, 1000 + i));
    }
    root.set(2, team(1, "same", 7));
    root.set(6, team(2, "same", 7));
    buckets.now.put(Row.of(7L), List.of());
    face.capture(root.toArray(new Row[0]));
    assertThat(bobJoinsGroup7()).containsExactly(new Remove(team("same"), 2), new Add(team("same", person("bob")), 2),
        new Remove(team("same"), 6), new Add(team("same", person("bob")), 6));
    assertThat(face.rowsExamined()).isEqualTo(2);
  }

  static WindowDelta step(WindowDelta.Op op, Row row, long key, int from, int to) {
    return new WindowDelta(op, row, op == WindowDelta.Op.ENTER ? null : row, Row.of(key), from, to,
        Cursor.of(key), 1);
  }
}
