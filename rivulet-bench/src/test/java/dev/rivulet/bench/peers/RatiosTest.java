package dev.rivulet.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cold samples become medians, cold lines come first, a failed cold check invalidates, old names still read. */
class RatiosTest {
  private static String line(String engine, String metric, Object value) {
    return "{\"engine\":\"" + engine + "\",\"workload\":\"W5\",\"rows\":1000,\"metric\":\"" + metric + "\",\"value\":"
        + value + "}";
  }

  private static List<String> print(List<String> lines) {
    Ratios r = new Ratios();
    Ratios.parseAll(lines).forEach(r::add);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    r.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()));
    return bytes.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void coldSamplesAreMedianedAndPrintedFirst() {
    List<String> out = print(List.of(
        line("rivulet", "hydrate_ms", 40), line("zero", "hydrate_ms", 80),
        line("rivulet", "hydrate_cold_ms", 300), line("zero", "hydrate_cold_ms", 50),
        line("rivulet", "hydrate_cold_ms", 100), line("zero", "hydrate_cold_ms", 70),
        line("rivulet", "hydrate_cold_ms", 200), line("zero", "hydrate_cold_ms", 900),
        line("rivulet", "correct_cold", true), line("zero", "correct_cold", true)));
    assertThat(out).hasSize(2);
    assertThat(out.get(0)).contains("\"metric\":\"hydrate_cold_ms_ratio\",\"value\":0.350", "\"rivulet\":200.000",
        "\"peer\":70.000", "\"rivulet_runs\":3,\"peer_runs\":3");
    // the old warm name reads as load_until_ready_warm_ms
    assertThat(out.get(1)).contains("\"metric\":\"load_until_ready_warm_ms_ratio\",\"value\":2.000");
  }

  @Test
  void firstBuildsAreComparedForW6AndW4Only() {
    List<String> lines = List.of(
        line("rivulet", "hydrate_first_ms", 100).replace("W5", "W6"), line("zero", "hydrate_first_ms", 300).replace("W5", "W6"),
        line("rivulet", "hydrate_first_ms", 100).replace("W5", "W1"), line("zero", "hydrate_first_ms", 300).replace("W5", "W1"));
    assertThat(print(lines)).singleElement().asString()
        .contains("\"workload\":\"W6\"", "\"metric\":\"hydrate_first_ms_ratio\",\"value\":3.000");
  }

  @Test
  void oneFailedColdRunMakesTheWorkloadInvalid() {
    List<String> out = print(List.of(
        line("rivulet", "hydrate_cold_ms", 100), line("zero", "hydrate_cold_ms", 50),
        line("zero", "correct_cold", false), line("zero", "correct_cold", true),
        line("rivulet", "correct_cold", true)));
    assertThat(out).singleElement().asString().contains("\"value\":\"invalid\"", "\"peer_ok\":false");
  }
}
