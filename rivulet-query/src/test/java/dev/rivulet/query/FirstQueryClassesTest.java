package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A fresh JVM loads each class at a cost (a few hundred microseconds on a small machine, a lambda's
 * linkage about a millisecond), so a user's first collection and flat live queries load only what
 * they use: no demand plane, no grouping, include, forward or custom-key machinery, no expression
 * class they do not use, no nested view's helpers, no synthetic enum-switch or anonymous classes
 * of Rivulet's ({@code Foo$1}), and, until the first update, no lambda of Rivulet's. Checked in a fresh JVM, the warm-up off ({@link FirstQueryProbe}).
 */
class FirstQueryClassesTest {
  private static final Pattern LOAD = Pattern.compile("\\[class,load\\s*\\] (\\S+) source");
  private static final String WRITE = "MARK write"; // the probe's line before its first update

  @Test
  void flatFirstQueriesLoadOnlyWhatTheyUse() throws Exception {
    List<String> loaded = loadedClasses();
    assertThat(loaded).as("the probe ran and Rivulet's classes were logged")
        .contains("dev.rivulet.query.Rivulet", "dev.rivulet.engine.TopKOperator", "dev.rivulet.engine.JoinOperator");
    assertThat(loaded).doesNotContain(
        "dev.rivulet.query.DemandAdapter",
        "dev.rivulet.query.demand.DemandLedger",
        "dev.rivulet.query.LazyCollection",
        "dev.rivulet.query.compile.GroupingCompiler",
        "dev.rivulet.query.compile.IncludeCompiler",
        "dev.rivulet.query.compile.PublicKeys",
        "dev.rivulet.query.IncludeFacades",
        "dev.rivulet.query.BucketCollection",
        "dev.rivulet.engine.ForwardOperator",
        // expression kinds these queries do not use, tested last in the chains of instanceof
        "dev.rivulet.query.Expr$Agg",
        "dev.rivulet.query.Expr$Output",
        "dev.rivulet.query.Expr$Include",
        // nested views' helpers, which a flat query's class verification no longer needs
        "dev.rivulet.query.face.TreeDiff$Buckets",
        "dev.rivulet.query.face.NestedValues$Facades",
        "dev.rivulet.query.face.ShownRows",
        // the handlers of temporal literals' parse errors (no temporal literal here)
        "java.time.format.DateTimeParseException");
    assertThat(loaded).as("synthetic switch-map and anonymous classes")
        .filteredOn(c -> c.startsWith("dev.rivulet.") && c.matches(".*\\$\\d+"))
        .isEmpty();
    List<String> beforeWrite = loaded.subList(0, loaded.indexOf(WRITE));
    assertThat(beforeWrite).as("the classes the warm-up loads for a user's first query (FirstQueryPaths), all used by these")
        .contains(FirstQueryPaths.BUILD).contains(FirstQueryPaths.LATE);
    assertThat(beforeWrite).as("lambdas linked by the loads and the first queries")
        .filteredOn(c -> c.startsWith("dev.rivulet.") && c.contains("$$Lambda"))
        .isEmpty();
  }

  private static List<String> loadedClasses() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Process p = new ProcessBuilder(java, "-Xmx256m", "-Drivulet.warmup=false", "-Xlog:class+load=info:stdout",
        "-cp", classPath, FirstQueryProbe.class.getName()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("MARK end 20 20");
    List<String> names = new ArrayList<>();
    for (String line : out.split("\n")) {
      Matcher m = LOAD.matcher(line);
      if (m.find()) {
        names.add(m.group(1));
      } else if (line.startsWith(WRITE)) {
        names.add(WRITE);
      }
    }
    return names;
  }
}
