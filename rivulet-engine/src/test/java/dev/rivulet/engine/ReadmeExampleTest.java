package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The usage example of README.md, verbatim between the markers, so that it cannot rot. */
class ReadmeExampleTest {
  @Test
  void readmeExample() {
    // README-EXAMPLE-START
    Schema issues = Schema.parse("id INT NOT NULL, status STRING, priority INT, title STRING");
    GraphBuilder b = Graph.builder();
    Stream open = b.input("issues", issues).filter(r -> "open".equals(r.get(1)));
    b.output("top", open.topK(List.of(SortKey.desc("priority"), SortKey.asc("id")), 0, 2));
    Graph graph = b.build();

    Input in = graph.input("issues");
    in.insert(Row.of(1, "open", 5, "crash"))
        .insert(Row.of(2, "open", 9, "leak"))
        .insert(Row.of(3, "closed", 7, "typo"));
    graph.run(); // one transaction, run to quiescence

    List<Row> window = new ArrayList<>();
    graph.output("top").delta().spliceInto(window); // [2 leak, 1 crash]

    in.update(Row.of(1, "open", 5, "crash"), Row.of(1, "open", 10, "crash"));
    graph.run();
    ZSet change = graph.output("top").delta(); // {[1 crash p5] -1 @1, [1 crash p10] +1 @0}
    change.spliceInto(window); // [1 crash, 2 leak]
    // README-EXAMPLE-END

    assertThat(window).containsExactly(Row.of(1, "open", 10, "crash"), Row.of(2, "open", 9, "leak"));
    assertThat(change.entries()).containsExactly(
        new ZSet.Entry(Row.of(1, "open", 5, "crash"), -1, 1),
        new ZSet.Entry(Row.of(1, "open", 10, "crash"), 1, 0));
  }

  @Test
  void readmeShowsThisExample() throws IOException {
    String test = Files.readString(Path.of("src/test/java/dev/rivulet/engine/ReadmeExampleTest.java"));
    String readme = Files.readString(Path.of("../README.md"));
    String example = between(test, "// README-EXAMPLE-START", "// README-EXAMPLE-END");
    assertThat(readme).contains("```java\n" + example + "\n```");
  }

  private static String between(String text, String start, String end) {
    String body = text.substring(text.indexOf(start) + start.length(), text.indexOf(end));
    // Drop the indentation of the test method so the block reads as it does in README.md.
    return Arrays.stream(body.split("\n"))
        .map(l -> l.length() >= 4 ? l.substring(4) : l.strip())
        .collect(Collectors.joining("\n"))
        .strip();
  }
}
