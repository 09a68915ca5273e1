package dev.rivulet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays every committed trace under {@code src/test/resources/traces} against the scenario it
 * names, step by step, atomically and split. A failing property prints such a trace; committing
 * it keeps the failure checked after the seed lists change.
 */
class RegressionTraceTest {
  static Path dir() throws URISyntaxException {
    return Path.of(RegressionTraceTest.class.getResource("/traces").toURI());
  }

  static List<String> traces() throws IOException, URISyntaxException {
    try (Stream<Path> files = Files.list(dir())) {
      List<String> out = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".trace")).sorted().toList();
      assertThat(out).as("committed traces in %s", dir()).isNotEmpty();
      return out;
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("traces")
  void replays(String name) throws URISyntaxException {
    Path file = dir().resolve(name);
    Trace trace = Trace.load(file);
    assertThat(trace.history().isValid()).as("%s retracts only present rows", file).isTrue();
    Scenarios.get(trace.scenario()).runner().replay(trace.history());
  }
}
