package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.query.expr.ExprCompiler;
import dev.rivulet.query.expr.ExprText;
import dev.rivulet.query.ref.RefEval;
import dev.rivulet.query.ref.RefType;
import dev.rivulet.query.ref.RefTypes;
import dev.rivulet.query.sql.SqlDialect;
import dev.rivulet.query.sql.SqlRenderer;
import dev.rivulet.testkit.RefValues;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Differential property: random well-typed expressions ({@link RandomExprs}, depth up to 4) over
 * a random one-row table give the same canonical value from the reference evaluator {@link
 * RefEval}, from SQLite and from H2 running {@link SqlRenderer}'s SQL (typed by the reference
 * typing table), and from the query layer's {@link ExprCompiler} under test. The reference is
 * checked against each SQL engine, and the compiler against the reference (and so against the SQL
 * engines, which share no code with it). Doubles are compared exactly. Each seed makes one
 * row and {@value #PER_ROW} expressions; {@code RIVULET_SEED} replays one seed and {@code
 * RIVULET_RUNS} multiplies the seed count. A failure names the seed, the row, the first failing
 * expression and its SQL.
 */
class ExprDifferentialTest {
  private static final int ROWS = 50;
  private static final int PER_ROW = 12;

  @Test
  void sqliteComputesWhatWeCompute() throws Exception {
    run(SqlDialect.SQLITE);
  }

  @Test
  void h2ComputesWhatWeCompute() throws Exception {
    run(SqlDialect.H2);
  }

  private static void run(SqlDialect dialect) throws Exception {
    Map<ColumnType, Integer> nonNull = new EnumMap<>(ColumnType.class);
    int total = 0;
    try (SqlEngines db = new SqlEngines(dialect, RandomExprs.SCHEMA)) {
      for (long seed : Seeds.runs(ROWS)) {
        Random r = new Random(seed);
        RandomExprs gen = new RandomExprs(dialect, r);
        Row row = gen.row();
        List<Expr> exprs = new ArrayList<>();
        List<String> sqls = new ArrayList<>();
        List<ColumnType> types = new ArrayList<>();
        for (int i = 0; i < PER_ROW; i++) {
          Expr e = gen.gen(RandomExprs.KINDS.get(r.nextInt(RandomExprs.KINDS.size())), 1 + r.nextInt(4));
          for (int retry = 0; retry < 3 && RefTypes.typeOf(e, RandomExprs.SCOPE) == RefType.ANY; retry++) {
            e = gen.gen(RandomExprs.KINDS.get(r.nextInt(RandomExprs.KINDS.size())), 1 + r.nextInt(4));
          }
          exprs.add(e);
          sqls.add(SqlRenderer.render(e, dialect, RandomExprs.SCOPE, "generated", c -> c.column()));
          types.add(RefTypes.typeOf(e, RandomExprs.SCOPE).declared());
        }
        db.load(row);
        List<Object> theirs;
        try {
          theirs = db.evalAll(sqls, types);
        } catch (java.sql.SQLException ex) {
          throw new AssertionError(header(dialect, seed, row) + ex.getMessage());
        }
        for (int i = 0; i < PER_ROW; i++) {
          Object reference = RefEval.of(exprs.get(i), RandomExprs.SCOPE).eval(row);
          Object ours = ExprCompiler.compile(exprs.get(i), RandomExprs.SCOPE).eval(row);
          if (!Objects.equals(reference, theirs.get(i)) || !Objects.equals(ours, reference)) {
            fail(header(dialect, seed, row) + "expression #" + i + ": " + ExprText.of(exprs.get(i))
                + "\n  type:   " + types.get(i)
                + "\n  SQL:    " + sqls.get(i)
                + "\n  reference: " + describe(reference)
                + "\n  compiler:  " + describe(ours)
                + "\n  " + dialect + ": " + describe(theirs.get(i)));
          }
          if (ours != null) {
            nonNull.merge(types.get(i), 1, Integer::sum);
          }
          total++;
        }
      }
    }
    if (Seeds.fixedSeed().isEmpty()) {
      // Guard against a generator that degenerates into NULLs or into one kind of expression.
      int values = nonNull.values().stream().mapToInt(Integer::intValue).sum();
      assertThat(values).as("non-NULL results of %s expressions", total).isGreaterThan(total / 3);
      assertThat(nonNull.keySet()).as("kinds with non-NULL results").containsAll(RandomExprs.KINDS);
    }
  }

  private static String header(SqlDialect dialect, long seed, Row row) {
    return dialect + ", the reference and the compiler disagree (replay: RIVULET_SEED=" + seed
        + " mvn verify -pl rivulet-query -Dtest=ExprDifferentialTest)\n  row " + RandomExprs.SCHEMA.names() + " = "
        + row + "\n  ";
  }

  private static String describe(Object v) {
    return v == null ? "NULL" : RefValues.render(v) + " (" + v.getClass().getSimpleName() + ")";
  }
}
