package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The query-layer examples of README.md, verbatim between the markers, so that they cannot rot. */
class ReadmeQueryExampleTest {
  @Test
  void readmeQueryExample() {
    // README-QUERY-START
    List<ChangeEvent> events = new ArrayList<>();
    Rivulet db = Rivulet.create();
    SourceCollection issues = db.collection("issues",
        Schema.parse("id INT NOT NULL, status STRING, priority INT, title STRING"), List.of("id"));
    issues.beginSync()
        .write(Row.of(1, "open", 5, "crash"))
        .write(Row.of(2, "open", 9, "leak"))
        .write(Row.of(3, "closed", 7, "typo"))
        .markReady()
        .commit();

    LiveQuery top = db.liveQuery("top", Query.from("i", issues)
        .where(eq(col("i.status"), lit("open")))
        .orderBy(Query.desc(col("i.priority")))
        .limit(10));
    top.subscribe(events::addAll); // insert / update / delete, once per transaction

    Transaction tx = db.transaction();
    tx.update(issues, Row.of(1, "open", 10, "crash")).apply(); // optimistic: visible at once
    List<Row> during = top.rows(); // [1 crash p10, 2 leak p9]
    tx.rollback(); // every live query returns exactly to the state without it
    List<Row> after = top.rows(); // [2 leak p9, 1 crash p5]
    // README-QUERY-END

    assertThat(during).containsExactly(Row.of(1, "open", 10, "crash"), Row.of(2, "open", 9, "leak"));
    assertThat(after).containsExactly(Row.of(2, "open", 9, "leak"), Row.of(1, "open", 5, "crash"));
    assertThat(events).extracting(ChangeEvent::type)
        .containsExactly(ChangeEvent.Type.UPDATE, ChangeEvent.Type.UPDATE);
  }

  @Test
  void readmeFacesExample() {
    // README-FACES-START
    Rivulet db = Rivulet.create();
    SourceCollection issues = db.collection("issues",
        Schema.parse("id INT NOT NULL, status STRING, priority INT, owner INT"), List.of("id"));
    SourceCollection users = db.collection("users", Schema.parse("id INT NOT NULL, name STRING"), List.of("id"));
    db.beginSync() // one transaction over two collections: one id, one publication
        .write(users, Row.of(7, "ann"))
        .write(issues, Row.of(1, "open", 5, 7))
        .write(issues, Row.of(2, "open", 9, 7))
        .write(issues, Row.of(3, "open", 7, 7))
        .markReady(users).markReady(issues)
        .commit();
    LiveQuery top = db.liveQuery("top", Query.from("i", issues)
        .where(eq(col("i.status"), lit("open")))
        .orderBy(Query.desc(col("i.priority"))) // then by key: the total order (priority, id)
        .limit(2));

    // Window face: a reset to the window, then steps with indexes, cursors and versions.
    List<WindowBatch> window = new ArrayList<>();
    LiveWindow w = top.subscribeWindow(SubscribeOptions.sync(), window::add); // RESET, ENTER 0, ENTER 1
    // Change-batch face, pulled: Hydrated once, then the batches published since the last take.
    ChangeSink sink = top.changeSink(1_000);
    ChangeBatch.Hydrated start = sink.hydrate(); // [Add 2 p9, Add 3 p7] at start.txId()

    issues.syncWrite(Row.of(1, "open", 20, 7)); // one row, its own sync transaction (no batch object)
    WindowDelta enter = window.get(1).deltas().get(1); // LEAVE 3 at 1, then ENTER 1 at 0, cursor (20, 1)
    List<ChangeBatch> since = sink.take(); // [Changed(txId, [Add 1 p20, Remove 3 p7])]
    w.reanchor(w.snapshot().lastCursor(), 2); // the next page, live: rows after (9, 2)
    // README-FACES-END

    assertThat(start.changes()).containsExactlyInAnyOrder(new Change.Add(Row.of(2, "open", 9, 7)),
        new Change.Add(Row.of(3, "open", 7, 7)));
    assertThat(enter.op()).isEqualTo(WindowDelta.Op.ENTER);
    assertThat(enter.newIndex()).isZero();
    assertThat(enter.cursor()).isEqualTo(Cursor.of(20, 1));
    assertThat(window.get(1).deltas().get(0).op()).isEqualTo(WindowDelta.Op.LEAVE);
    assertThat(since).singleElement().satisfies(b -> {
      assertThat(b.txId()).isEqualTo(start.txId() + 1);
      assertThat(b.changes()).containsExactlyInAnyOrder(new Change.Add(Row.of(1, "open", 20, 7)),
          new Change.Remove(Row.of(3, "open", 7, 7)));
    });
    assertThat(w.snapshot().rows()).extracting(WindowSnapshot.Entry::row).containsExactly(Row.of(3, "open", 7, 7));
    assertThat(window.get(2).deltas()).extracting(WindowDelta::op)
        .containsExactly(WindowDelta.Op.LEAVE, WindowDelta.Op.LEAVE, WindowDelta.Op.ENTER);
  }

  @Test
  @SuppressWarnings("unchecked")
  void readmeNestedExample() {
    // README-NESTED-START
    Rivulet db = Rivulet.create();
    SourceCollection projects = db.collection("projects", Schema.parse("id INT NOT NULL, name STRING"), List.of("id"));
    SourceCollection issues = db.collection("issues",
        Schema.parse("id INT NOT NULL, project INT, status STRING, priority INT"), List.of("id"));
    SourceCollection comments = db.collection("comments",
        Schema.parse("id INT NOT NULL, issue INT, created INT, body STRING"), List.of("id"));
    db.beginSync()
        .write(projects, Row.of(1, "core"))
        .write(issues, Row.of(10, 1, "open", 5)).write(issues, Row.of(11, 1, "open", 9))
        .write(comments, Row.of(100, 10, 1, "repro")).write(comments, Row.of(101, 10, 2, "fixed?"))
        .markReady(projects).markReady(issues).markReady(comments)
        .commit();
    Query lastComments = Query.from("c", comments)
        .where(eq(col("c.issue"), col("i.id"))) // correlated with the parent: child column = parent value
        .select(Query.as("body", col("c.body")))
        .orderBy(Query.desc(col("c.created"))).limit(3); // per issue
    Query project = Query.from("p", projects).where(eq(col("p.id"), col("i.project")))
        .select(Query.as("name", col("p.name")));
    LiveQuery board = db.liveQuery("board", Query.from("i", issues)
        .where(eq(col("i.status"), lit("open")))
        .select(Query.as("id", col("i.id")), Query.includeArray("comments", lastComments),
            Query.includeOne("project", project))
        .orderBy(Query.desc(col("i.priority"))).limit(50));
    Row second = board.rows().get(1); // [10, [[fixed?], [repro]], [core]]
    List<Row> newest = (List<Row>) second.get(1); // List<Row>, in the child's order
    Row owner = (Row) second.get(2); // a Row, or null when there is none

    // Change-tree face: Add(node) per row once, then per transaction only what changed, nested.
    ChangeTreeSink tree = board.changeTreeSink(1_000);
    TreeBatch initial = tree.hydrate(); // [Add(11 {0=[], 1=[core]}, 0), Add(10 {0=[fixed?, repro], ...}, 1)]
    comments.beginSync().write(Row.of(102, 10, 3, "yes")).commit();
    List<TreeBatch> since = tree.take(); // [Child(row [10], relationship 0, Add(node [yes], index 0))]
    // README-NESTED-END

    assertThat(newest).extracting(r -> r.get(0)).containsExactly("fixed?", "repro");
    assertThat(owner).isEqualTo(Row.of("core"));
    assertThat(board.relationships()).containsExactly("comments", "project");
    assertThat(initial.changes()).hasSize(2);
    assertThat(since).singleElement().satisfies(b -> assertThat(b.changes()).containsExactly(
        new CaughtChange.Child(Row.of(10), 0, new CaughtChange.Add(new CaughtNode(Row.of("yes")), 0))));
  }

  @Test
  void readmeShowsTheseExamples() throws IOException {
    String test = Files.readString(Path.of("src/test/java/dev/rivulet/query/ReadmeQueryExampleTest.java"));
    String readme = Files.readString(Path.of("../README.md"));
    for (String marker : List.of("README-QUERY", "README-FACES", "README-NESTED")) {
      String start = "// " + marker + "-START";
      String body = test.substring(test.indexOf(start) + start.length(), test.indexOf("// " + marker + "-END"));
      String example = Arrays.stream(body.split("\n"))
          .map(l -> l.length() >= 4 ? l.substring(4) : l.strip())
          .collect(Collectors.joining("\n"))
          .strip();
      assertThat(readme).contains("```java\n" + example + "\n```");
    }
  }
}
