package dev.rivulet.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The Java and JS generators agree, W5's tables and W6's title streams included. The Node half is skipped on a
 * machine without Node (the README's test command needs only a JDK and Maven); {@code .ci/run}
 * installs Node, so CI always runs it.
 */
class GenCheckTest {
  private static final Path SCRIPT = Path.of("peers", "gen-check.mjs");

  @Test
  void javaTextCoversEveryWorkloadsTablesAndStreams() {
    String text = GenCheck.text(2_000, 500, PeerData.DEFAULT_SEED);
    assertThat(text).contains("digest issues 2000:", "digest updates W3 mixed 500:", "digest comments 20000:",
        "digest tasks 2000:", "digest members 20:", "digest updates W5 mixed 500:", "top3 visible after W5:",
        "digest updates W6 random 500:", "digest updates W6 edge 500:", "top3 open after W6:");
    // every shown W6 update keeps the generator's title form (module id % 97) with another word
    assertThat(text.lines().filter(l -> l.startsWith("update W6 "))).hasSize(10).allSatisfy(l -> {
      var m = java.util.regex.Pattern.compile("update W6 \\w+ (\\d+) title (\\w+) in module (\\d+)->(\\w+) in module (\\d+)")
          .matcher(l);
      assertThat(m.matches()).as(l).isTrue();
      assertThat(Integer.parseInt(m.group(3))).isEqualTo(Integer.parseInt(m.group(1)) % 97);
      assertThat(m.group(5)).isEqualTo(m.group(3));
      assertThat(m.group(4)).isNotEqualTo(m.group(2));
    });
    assertThat(text).containsPattern("task 0 \\d+ (null|\\d+) \\w+ task 0\\n");
  }

  @Test
  void nodeGeneratorPrintsTheSameText() throws IOException, InterruptedException {
    assumeTrue(Files.isRegularFile(SCRIPT), "run from rivulet-bench (the peers folder is there)");
    Process p;
    try {
      p = new ProcessBuilder("node", SCRIPT.toString(), "2000", "500").redirectErrorStream(true).start();
    } catch (IOException e) {
      assumeTrue(false, "no node on this machine: " + e.getMessage());
      return;
    }
    String js = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(js).isZero();
    assertThat(js).isEqualTo(GenCheck.text(2_000, 500, PeerData.DEFAULT_SEED));
  }
}
