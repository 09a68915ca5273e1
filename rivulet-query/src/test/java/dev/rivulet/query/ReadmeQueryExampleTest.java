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

/** The query-layer example of README.md, verbatim between the markers, so that it cannot rot. */
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
  void readmeShowsThisExample() throws IOException {
    String test = Files.readString(Path.of("src/test/java/dev/rivulet/query/ReadmeQueryExampleTest.java"));
    String readme = Files.readString(Path.of("../README.md"));
    String start = "// README-QUERY-START";
    String body = test.substring(test.indexOf(start) + start.length(), test.indexOf("// README-QUERY-END"));
    String example = Arrays.stream(body.split("\n"))
        .map(l -> l.length() >= 4 ? l.substring(4) : l.strip())
        .collect(Collectors.joining("\n"))
        .strip();
    assertThat(readme).contains("```java\n" + example + "\n```");
  }
}
