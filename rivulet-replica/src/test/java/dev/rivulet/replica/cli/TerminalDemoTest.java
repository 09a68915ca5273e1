package dev.rivulet.replica.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rivulet.engine.Row;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rivulet demo} as a person meets it: in a real terminal (a tmux pane, 110 x 40), it draws
 * both live tables and the latency footer in place and keeps them moving; Ctrl-C stops it
 * cleanly (exit 0), and the last screen, left on the terminal, shows exactly what the database
 * answers to the same queries on the file it wrote. Needs {@code tmux} ({@code .ci/run} installs
 * it; without it the test is skipped).
 */
class TerminalDemoTest {
  private static final Pattern FOOTER = Pattern.compile("(\\d+)s\\s+(\\d+) commits\\s+\\d+ commits/s");
  private final String socket = "rivulet-test-" + ProcessHandle.current().pid();

  @AfterEach
  void killServer() throws Exception {
    tmux("kill-server");
  }

  @Test
  void drawsInPlaceStopsOnCtrlCAndLeavesTheDatabasesAnswerOnScreen(@TempDir Path dir) throws Exception {
    assumeTrue(tmuxAvailable(), "tmux is not installed");
    Path db = dir.resolve("tracker.db");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String cmd = "'" + java + "' -cp '" + cp + "' dev.rivulet.replica.cli.Main demo --duration 120 --seed 11 --db '"
        + db + "'; echo EXIT=$?; sleep 120";
    assertThat(tmux("new-session", "-d", "-s", "demo", "-x", "110", "-y", "40", cmd)).isZero();

    String first = await(s -> s.contains("Open issues per project") && FOOTER.matcher(s).find(), 60);
    assertThat(first).contains("Top 20 open issues by priority", "commit+publish latency  p50");
    long commits = commitsOf(first);
    String later = await(s -> FOOTER.matcher(s).find() && commitsOf(s) > commits, 20);
    assertThat(count(later, "Top 20 open issues by priority")).as("drawn in place, not scrolled:%n%s", later)
        .isEqualTo(1);
    assertThat(topRows(later)).hasSize(20);

    assertThat(tmux("send-keys", "-t", "demo", "C-c")).isZero();
    String end = await(s -> s.contains("EXIT="), 20);
    assertThat(end).as(end).contains("EXIT=0");

    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      List<String> top = new ArrayList<>();
      for (Row r : DemoTest.sql(c, DemoTest.TOP_SQL)) { // id, priority, project, title, assignee, comments
        top.add(r.get(0) + " " + r.get(1) + " " + r.get(2) + " " + (r.get(4) == null ? "-" : r.get(4)) + " " + r.get(5));
      }
      assertThat(topRows(end)).as(end).isEqualTo(top);
      List<String> projects = new ArrayList<>();
      for (Row r : DemoTest.sql(c, DemoTest.PROJECTS_SQL)) {
        projects.add(r.get(0) + " " + r.get(1) + " " + r.get(2) + " " + r.get(3) + " " + r.get(4));
      }
      assertThat(projectRows(end)).as(end).isEqualTo(projects);
    }
  }

  /** The top table's rows on the screen as "id prio project assignee comments" (the title left out: it is clipped). */
  private static List<String> topRows(String screen) {
    List<String> lines = screen.lines().toList();
    int at = lines.lastIndexOf("Top 20 open issues by priority");
    List<String> out = new ArrayList<>();
    for (int i = at + 2; at >= 0 && i < lines.size() && !lines.get(i).isBlank(); i++) {
      String[] t = lines.get(i).trim().split("\\s+");
      out.add(t[0] + " " + t[1] + " " + t[2] + " " + t[t.length - 2] + " " + t[t.length - 1]);
    }
    return out;
  }

  private static List<String> projectRows(String screen) {
    List<String> lines = screen.lines().toList();
    int at = lines.lastIndexOf("Open issues per project");
    List<String> out = new ArrayList<>();
    for (int i = at + 2; at >= 0 && i < lines.size() && !lines.get(i).isBlank(); i++) {
      out.add(String.join(" ", lines.get(i).trim().split("\\s+")));
    }
    return out;
  }

  private static long commitsOf(String screen) {
    Matcher m = FOOTER.matcher(screen);
    long last = -1;
    while (m.find()) {
      last = Long.parseLong(m.group(2));
    }
    return last;
  }

  private static int count(String s, String part) {
    int n = 0;
    for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }

  /** The pane's text once {@code ready} accepts it; fails with the last text after {@code seconds}. */
  private String await(Predicate<String> ready, int seconds) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    String screen = "";
    while (System.nanoTime() < end) {
      screen = capture();
      if (ready.test(screen)) {
        return screen;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the pane did not show what was awaited within " + seconds + " s:\n" + screen);
  }

  private String capture() throws IOException, InterruptedException {
    Process p = new ProcessBuilder("tmux", "-L", socket, "capture-pane", "-p", "-t", "demo").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return out;
  }

  private int tmux(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("tmux", "-L", socket));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    return p.waitFor();
  }

  private static boolean tmuxAvailable() {
    try {
      Process p = new ProcessBuilder("tmux", "-V").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      return p.waitFor() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}
