package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.RowList;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.CaughtChange.Add;
import dev.rivulet.query.CaughtChange.Child;
import dev.rivulet.query.CaughtChange.Edit;
import dev.rivulet.query.CaughtChange.Remove;
import dev.rivulet.query.compile.RowShape;
import dev.rivulet.query.face.TreeDiff;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The change-tree diff on hand-built stored rows: project (name, issues: array, tags: concat) ->
 * issue (title, comments: array, lead: one) -> comment (text, score DOUBLE) / person (who); every
 * element row is its visible columns then its key, the key hidden.
 */
class TreeDiffTest {
  static final RowShape COMMENT = new RowShape(
      Schema.of(Column.of("text", ColumnType.STRING), Column.of("score", ColumnType.DOUBLE)), new int[] {2}, true,
      List.of());
  static final RowShape PERSON = new RowShape(Schema.of(Column.of("who", ColumnType.STRING)), new int[] {1}, true,
      List.of());
  static final RowShape ISSUE = new RowShape(
      Schema.of(Column.of("title", ColumnType.STRING), Column.of("comments", ColumnType.ANY),
          Column.of("lead", ColumnType.ANY)),
      new int[] {3}, true, List.of(new RowShape.Nest(1, "comments", Expr.IncludeMode.ARRAY, COMMENT),
          new RowShape.Nest(2, "lead", Expr.IncludeMode.ONE, PERSON)));
  static final RowShape PROJECT = new RowShape(
      Schema.of(Column.of("name", ColumnType.STRING), Column.of("tags", ColumnType.STRING),
          Column.of("issues", ColumnType.ANY)),
      new int[] {3}, true, List.of(
          new RowShape.Nest(1, "tags", Expr.IncludeMode.CONCAT, PERSON),
          new RowShape.Nest(2, "issues", Expr.IncludeMode.ARRAY, ISSUE)));
  final TreeDiff diff = new TreeDiff(PROJECT);

  static Row comment(long id, String text, long score) {
    return Row.of(text, score, id).canonical();
  }

  static Row person(long id, String who) {
    return Row.of(who, id);
  }

  static Row issue(long id, String title, List<Row> comments, Row lead) {
    return Row.of(title, RowList.of(comments), lead == null ? RowList.empty() : RowList.of(lead), id);
  }

  static Row project(long id, String name, String tags, Row... issues) {
    return Row.of(name, tags, RowList.of(issues), id);
  }

  static CaughtNode leaf(Object... values) {
    return new CaughtNode(Row.of(values));
  }

  static CaughtNode issueNode(String title, List<CaughtNode> comments, List<CaughtNode> lead) {
    TreeMap<Integer, List<CaughtNode>> rels = new TreeMap<>(Map.of(0, comments, 1, lead));
    return new CaughtNode(Row.of(title), rels);
  }

  List<CaughtChange> rowDiff(Row before, Row after) {
    List<CaughtChange> out = new ArrayList<>();
    diff.row(before, after, 4, true, out);
    return out;
  }

  final Row c1 = comment(1, "first", 2);
  final Row c2 = comment(2, "second", 3);
  final Row c3 = comment(3, "third", 1);
  final Row ann = person(7, "ann");
  final Row i1 = issue(10, "crash", List.of(c1, c2), ann);
  final Row i2 = issue(11, "slow", List.of(), null);

  @Test
  void nodesCarryScalarColumnsTypedAndEverySlotInOrder() {
    CaughtNode n = diff.node(project(1, "rivulet", "a,b", i1, i2));
    assertThat(n.row()).isEqualTo(Row.of("rivulet", "a,b")); // the concat is a scalar; the array is slot 0
    assertThat(n.relationships().keySet()).containsExactly(0);
    List<CaughtNode> issues = n.relationships().get(0);
    assertThat(issues).containsExactly(
        issueNode("crash", List.of(leaf("first", 2.0), leaf("second", 3.0)), List.of(leaf("ann"))),
        issueNode("slow", List.of(), List.of()));
    Object score = issues.get(0).relationships().get(0).get(0).row().get(1);
    assertThat(score).isInstanceOf(Double.class).isEqualTo(2.0);
  }

  @Test
  void scalarChangeIsAnEditAndConcatIsAScalar() {
    assertThat(rowDiff(project(1, "rivulet", "a", i1), project(1, "rivulet", "a,b", i1)))
        .containsExactly(new Edit(Row.of("rivulet", "a"), Row.of("rivulet", "a,b")));
    assertThat(rowDiff(project(1, "rivulet", "a", i1), project(1, "rivulet", "a", i1))).isEmpty();
  }

  @Test
  void childAddedRemovedAndEditedAreChildChanges() {
    Row before = project(1, "p", "", i1);
    Row added = project(1, "p", "", i1, i2);
    assertThat(rowDiff(before, added)).containsExactly(
        new Child(Row.of("p", ""), 0, new Add(issueNode("slow", List.of(), List.of()), 1)));
    assertThat(rowDiff(added, before)).containsExactly(
        new Child(Row.of("p", ""), 0, new Remove(issueNode("slow", List.of(), List.of()), 1)));
    Row renamed = project(1, "p", "", issue(10, "crash!", List.of(c1, c2), ann));
    assertThat(rowDiff(before, renamed)).containsExactly(
        new Child(Row.of("p", ""), 0, new Edit(Row.of("crash"), Row.of("crash!"))));
  }

  @Test
  void depthThreeChangesNestAsDeepAsTheyHappen() {
    Row before = project(1, "p", "", i1, i2);
    Row after = project(1, "p", "", issue(10, "crash", List.of(c1, c3, comment(2, "second", 4)), ann), i2);
    List<CaughtChange> out = rowDiff(before, after);
    // c2 stays (same key) and its score changes: an Edit; c3 comes between c1 and c2
    assertThat(out).containsExactly(
        new Child(Row.of("p", ""), 0, new Child(Row.of("crash"), 0, new Edit(Row.of("second", 3.0),
            Row.of("second", 4.0)))),
        new Child(Row.of("p", ""), 0, new Child(Row.of("crash"), 0, new Add(leaf("third", 1.0), 1))));
  }

  @Test
  void reorderedChildrenOffTheLongestKeptOrderAreRemovedAndAdded() {
    Row a = issue(1, "a", List.of(), null);
    Row b = issue(2, "b", List.of(), null);
    Row c = issue(3, "c", List.of(), null);
    List<CaughtChange> out = rowDiff(project(1, "p", "", a, b, c), project(1, "p", "", c, a, b));
    CaughtNode cn = issueNode("c", List.of(), List.of());
    assertThat(out).containsExactly(new Child(Row.of("p", ""), 0, new Remove(cn, 2)),
        new Child(Row.of("p", ""), 0, new Add(cn, 0)));
  }

  @Test
  void oneModeReplacesItsChildByKey() {
    Row before = project(1, "p", "", issue(10, "t", List.of(), ann));
    Row after = project(1, "p", "", issue(10, "t", List.of(), person(8, "bob")));
    Row none = project(1, "p", "", issue(10, "t", List.of(), null));
    assertThat(rowDiff(before, after)).containsExactly(
        new Child(Row.of("p", ""), 0, new Child(Row.of("t"), 1, new Remove(leaf("ann"), 0))),
        new Child(Row.of("p", ""), 0, new Child(Row.of("t"), 1, new Add(leaf("bob"), 0))));
    assertThat(rowDiff(none, before)).containsExactly(
        new Child(Row.of("p", ""), 0, new Child(Row.of("t"), 1, new Add(leaf("ann"), 0))));
  }

  @Test
  void scalarsAndRelationshipsBothChangingIsRemoveThenAddAtTheIndex() {
    Row before = project(1, "p", "", i1);
    Row after = project(1, "q", "", i1, i2);
    assertThat(rowDiff(before, after)).containsExactly(new Remove(diff.node(before), 4), new Add(diff.node(after), 4));
    List<CaughtChange> notUnique = new ArrayList<>();
    diff.row(before, project(1, "q", "", i1), 2, false, notUnique);
    assertThat(notUnique).containsExactly(new Remove(diff.node(before), 2),
        new Add(diff.node(project(1, "q", "", i1)), 2));
  }

  @Test
  void childMovingBetweenParentsLeavesOneAndEntersTheOther() {
    TreeDiff issues = new TreeDiff(ISSUE);
    Row p1 = project(1, "p1", "", i1, i2);
    Row p2 = project(2, "p2", "", issue(12, "other", List.of(), null));
    Row p1After = project(1, "p1", "", i2);
    Row p2After = project(2, "p2", "", issue(12, "other", List.of(), null), i1);
    List<CaughtChange> out = new ArrayList<>();
    diff.list(List.of(p1, p2), List.of(p1After, p2After), out);
    CaughtNode moved = issues.node(i1);
    assertThat(out).containsExactly(new Child(Row.of("p1", ""), 0, new Remove(moved, 0)),
        new Child(Row.of("p2", ""), 0, new Add(moved, 1)));
  }

  @Test
  void anEditOfARowThatASiblingAlsoShowsIsARemoveAndAdd() {
    Row twinA = comment(1, "same", 1);
    Row twinB = comment(2, "same", 1);
    Row before = issue(10, "t", List.of(twinA, twinB), null);
    Row after = issue(10, "t", List.of(twinA, comment(2, "changed", 1)), null);
    List<CaughtChange> out = new ArrayList<>();
    new TreeDiff(ISSUE).row(before, after, 0, true, out);
    assertThat(out).containsExactly(new Child(Row.of("t"), 0, new Remove(leaf("same", 1.0), 1)),
        new Child(Row.of("t"), 0, new Add(leaf("changed", 1.0), 1)));
    // once the twin differs, an edit names a single row
    Row apart = issue(10, "t", List.of(comment(1, "one", 1), twinB), null);
    Row apartAfter = issue(10, "t", List.of(comment(1, "one", 1), comment(2, "two", 1)), null);
    out.clear();
    new TreeDiff(ISSUE).row(apart, apartAfter, 0, true, out);
    assertThat(out).containsExactly(new Child(Row.of("t"), 0, new Edit(Row.of("same", 1.0), Row.of("two", 1.0))));
  }

  @Test
  void collectionRelationshipsTakeTheirRowsFromTheBucketHook() {
    RowShape shape = new RowShape(Schema.of(Column.of("name", ColumnType.STRING), Column.of("kids", ColumnType.ANY)),
        new int[] {2}, false, List.of(new RowShape.Nest(1, "kids", Expr.IncludeMode.COLLECTION, PERSON)));
    Row parent = Row.of("p", RowList.of(Row.of(5L)), 1L);
    assertThat(new TreeDiff(shape).node(parent)).isEqualTo(
        new CaughtNode(Row.of("p"), new TreeMap<>(Map.of(0, List.of()))));
    TreeDiff hooked = new TreeDiff(shape, (nest, value) -> List.of(person(3, "bucket " + value)));
    assertThat(hooked.node(parent).relationships().get(0)).containsExactly(leaf("bucket [[5]]"));
  }
}
