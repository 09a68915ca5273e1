package dev.rivulet.query.ref;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The oracles share no code with what they check, at the level of the source text: the reference
 * (this package, the testkit's {@code RefValues} and naive evaluators, the query oracle's naive
 * evaluator and its helpers) and the SQL rendering import from the code under test only the public
 * data types they read (rows, the IR records, the declared schemas of sources, the byte-string
 * value type, the exception type) and name none of the engine's or the query layer's logic
 * ({@code Values}, the type checker, the expression compiler and its parts, the compiler).
 *
 * <p>The one remaining link is the public row type: the reference builds its rows with {@code
 * Row.of}, and {@code RefValues.row} checks that the row holds every value exactly as the reference
 * canonicalized it, so the engine's canonicalization can only make the oracle fail, never agree
 * with a wrong value. {@code OracleWorld.LiveRef} asks the compiler how many hidden key columns a
 * live query has, to name them; the naive evaluator never reads them as values.
 */
class OracleIndependenceTest {
  /** What the reference side may import from the code under test. */
  private static final Set<String> ALLOWED = Set.of(
      "dev.rivulet.engine.Row",
      "dev.rivulet.engine.Schema", // a source's declared columns, read by name and type name
      "dev.rivulet.engine.Column",
      "dev.rivulet.engine.ColumnType", // mapped by name onto RefType
      "dev.rivulet.engine.Bytes", // the public byte-string value type
      "dev.rivulet.engine.Aggregate", // testkit Naive: which aggregate an operator computes
      "dev.rivulet.engine.JoinType",
      "dev.rivulet.engine.SortKey",
      "dev.rivulet.engine.Reducer", // the user function under reduce, and the Z-set it is handed
      "dev.rivulet.engine.ZSet",
      "dev.rivulet.query.Expr",
      "dev.rivulet.query.QueryIR",
      "dev.rivulet.query.Source",
      "dev.rivulet.query.QueryException");

  /** Names of the logic under test that the reference must not use. */
  private static final Pattern FORBIDDEN = Pattern.compile(
      "\\b(Values|TypeChecker|ExprCompiler|Evaluator|Arithmetic|LikePattern|StringFunctions|ExprText|Expressions"
          + "|QueryCompiler|QueryPlans|Layout|Projection|GroupingCompiler|RowOrder|Accumulator)\\b"
          + "|\\bColumnType\\.of\\(|\\.comparableWith\\(|\\.isNumeric\\(|\\.accepts\\(|\\.compareTo\\(\\s*\\w*[rR]ow");

  private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?(dev\\.rivulet\\.[\\w.]+);", Pattern.MULTILINE);

  @Test
  void theReferenceSideNamesNoLogicUnderTest() throws IOException {
    Path root = projectRoot();
    List<Path> files = new ArrayList<>();
    Path query = root.resolve("rivulet-query/src/test/java/dev/rivulet/query");
    try (Stream<Path> s = Files.list(query.resolve("ref"))) {
      s.filter(p -> p.toString().endsWith(".java") && !p.endsWith("OracleIndependenceTest.java")).forEach(files::add);
    }
    try (Stream<Path> s = Files.list(query.resolve("sql"))) {
      s.filter(p -> p.toString().endsWith(".java")).forEach(files::add);
    }
    for (String f : List.of("NaiveQuery", "NaiveAggregates", "BlockScope", "Shapes", "ExprTrees", "ResultMatch",
        "SqlDatabase", "SqlEngines", "IncludeNaive")) {
      files.add(query.resolve(f + ".java"));
    }
    Path testkit = root.resolve("rivulet-testkit/src/main/java/dev/rivulet/testkit");
    for (String f : List.of("RefValues", "Naive", "NaiveAggregates", "Render")) {
      files.add(testkit.resolve(f + ".java"));
    }
    List<String> problems = new ArrayList<>();
    for (Path f : files) {
      String text = Files.readString(f);
      Matcher m = IMPORT.matcher(text);
      while (m.find()) {
        String imported = m.group(1);
        boolean ok = ALLOWED.contains(imported) || imported.startsWith("dev.rivulet.query.ref.")
            || imported.startsWith("dev.rivulet.query.sql.") || imported.equals("dev.rivulet.testkit.RefValues");
        if (!ok) {
          problems.add(f.getFileName() + " imports " + imported);
        }
      }
      String code = withoutComments(text);
      Matcher bad = FORBIDDEN.matcher(code);
      while (bad.find()) {
        if (!bad.group().equals("RefValues")) {
          problems.add(f.getFileName() + " names " + bad.group());
        }
      }
    }
    assertThat(files).hasSizeGreaterThan(15);
    assertThat(problems).as("the reference side must not use the logic it checks").isEmpty();
  }

  /** The source text without comments and string literals' contents. */
  static String withoutComments(String s) {
    return s.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ").replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"");
  }

  private static Path projectRoot() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("rivulet-testkit"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("cannot find the project root from " + Path.of("").toAbsolutePath());
    }
    return p;
  }
}
