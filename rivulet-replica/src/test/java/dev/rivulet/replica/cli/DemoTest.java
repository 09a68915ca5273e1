package dev.rivulet.replica.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.replica.SqlRows;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code rivulet demo} run headless in-process: it exits cleanly, prints a summary per second, and
 * its live queries' last rows equal the database's own answer (SQLite, or H2 with {@code --h2}) to
 * the same queries on the file it wrote.
 */
class DemoTest {
  static final String TOP_SQL = "SELECT i.id, i.priority, p.name, i.title, u.name, coalesce(cc.n, 0)"
      + " FROM issues i JOIN projects p ON p.id = i.project LEFT JOIN users u ON u.id = i.assignee"
      + " LEFT JOIN (SELECT issue, count(*) AS n FROM comments GROUP BY issue) cc ON cc.issue = i.id"
      + " WHERE i.status = 'open' ORDER BY i.priority DESC, i.id LIMIT 20";
  static final String PROJECTS_SQL = "SELECT p.name, count(*), count(CASE WHEN i.priority >= 90 THEN 1 END),"
      + " count(CASE WHEN i.assignee IS NULL THEN 1 END), max(i.priority)"
      + " FROM issues i JOIN projects p ON p.id = i.project WHERE i.status = 'open' GROUP BY p.name ORDER BY p.name";

  private record Run(int exit, String out, String err, DemoCommand demo) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int exit = cl.execute(args);
    return new Run(exit, out.toString(), err.toString(), cl.getSubcommands().get("demo").getCommand());
  }

  @Test
  void headlessDemoExitsCleanlyAndItsLastTablesEqualSqlite(@TempDir Path dir) throws SQLException {
    Path file = dir.resolve("tracker.db");
    checkDemo(run("demo", "--plain", "--duration", "3", "--seed", "11", "--db", file.toString()),
        "jdbc:sqlite:" + file);
  }

  @Test
  void headlessDemoOnH2ExitsCleanlyAndItsLastTablesEqualH2(@TempDir Path dir) throws SQLException {
    Path file = dir.resolve("tracker");
    checkDemo(run("demo", "--plain", "--h2", "--duration", "3", "--seed", "11", "--db", file.toString()),
        "jdbc:h2:" + file.toAbsolutePath() + ";DATABASE_TO_LOWER=TRUE");
  }

  /** The run exited cleanly, printed rising summaries, and its last tables equal the database's own answer. */
  private static void checkDemo(Run r, String url) throws SQLException {
    assertThat(r.exit()).as(r.err()).isZero();
    Matcher m = Pattern.compile("(?m)^\\d+s  (\\d+) commits .*\\| top: .*\\| open: .*$").matcher(r.out());
    List<Long> commits = new ArrayList<>();
    while (m.find()) {
      commits.add(Long.parseLong(m.group(1)));
    }
    assertThat(commits).as(r.out()).hasSizeGreaterThanOrEqualTo(2).isSorted().doesNotHaveDuplicates();
    assertThat(commits.get(0)).isPositive();
    assertThat(r.out()).contains("Top 20 open issues by priority", "Open issues per project", "commit+publish latency  p50");

    try (Connection c = DriverManager.getConnection(url)) {
      List<Row> top = sql(c, TOP_SQL);
      assertThat(top).hasSize(20);
      assertThat(normalized(r.demo().lastTop)).isEqualTo(top);
      List<Row> projects = sql(c, PROJECTS_SQL);
      assertThat(projects).isNotEmpty();
      assertThat(normalized(r.demo().lastProjects)).isEqualTo(projects);
    }
  }

  @Test
  void noSubcommandIsAUsageError() {
    Run none = run();
    assertThat(none.exit()).isNotZero();
    assertThat(none.err()).contains("name a subcommand");
  }

  static List<Row> sql(Connection c, String query) throws SQLException {
    return SqlRows.read(c, query, v -> v instanceof Number num ? (Object) num.longValue() : v);
  }

  /** Integral numbers as longs: SQLite hands out Integer or Long by magnitude. */
  private static List<Row> normalized(List<Row> rows) {
    List<Row> out = new ArrayList<>();
    for (Row row : rows) {
      Object[] v = new Object[row.width()];
      for (int i = 0; i < v.length; i++) {
        v[i] = row.get(i) instanceof Number num ? (Object) num.longValue() : row.get(i);
      }
      out.add(Row.of(v));
    }
    return out;
  }
}
