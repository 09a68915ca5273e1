package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Bytes;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SchemaException;
import dev.rivulet.engine.internal.EngineAccess;
import dev.rivulet.testkit.Seeds;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowFit}, the sync batch's per-class check: it never passes a row the schema refuses (the
 * general path, {@link Schema#check}), it passes the usual rows (one value of each column type's
 * class, NULL where allowed: the fast path is taken), and a row it leaves to the schema is still
 * written or refused with the schema's message.
 */
class RowFitTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, d DOUBLE, m DECIMAL, s STRING, b BOOL, "
      + "x BYTES, day DATE, at TIMESTAMP, any ANY");

  private static final Object[] CANDIDATES = {
      1L, -5L, 1L << 60, 2.5, 3.0, Double.NaN, new BigDecimal("1.25"), "a", "", true, false,
      Bytes.of(new byte[] {1}), LocalDate.of(2026, 1, 2), Instant.ofEpochSecond(7), null};

  /** A value of each column's class (an ANY column: any value). */
  private static final Object[] USUAL = {
      7L, 0.5, new BigDecimal("0.5"), "s", false, Bytes.of(new byte[0]), LocalDate.of(2000, 1, 1),
      Instant.ofEpochSecond(1), "any"};

  @Test
  void passesOnlyWhatTheSchemaAcceptsAndTheUsualRows() {
    RowFit fit = new RowFit(S);
    int passed = 0;
    for (long seed : Seeds.runs(3)) {
      Random rnd = new Random(seed);
      for (int n = 0; n < 20_000; n++) {
        Object[] values = new Object[rnd.nextInt(20) == 0 ? 8 : 9];
        for (int i = 0; i < values.length; i++) {
          values[i] = rnd.nextInt(10) < 9 ? USUAL[i] : CANDIDATES[rnd.nextInt(CANDIDATES.length)];
        }
        Row row = Row.of(values);
        boolean schemaAccepts;
        try {
          S.check(row);
          schemaAccepts = true;
        } catch (SchemaException e) {
          schemaAccepts = false;
        }
        boolean fits = fit.fits(EngineAccess.get().valuesInPlace(row));
        if (fits) {
          passed++;
          assertThat(schemaAccepts).as("seed %d (%s): %s", seed, Seeds.replayHint(seed), row).isTrue();
        }
      }
    }
    assertThat(passed).as("random rows passed by class").isPositive();
    Row usual = Row.of(1L, 2.5, null, "a", true, Bytes.of(new byte[] {2}), LocalDate.of(2026, 1, 2),
        Instant.ofEpochSecond(9), 4L);
    assertThat(fit.fits(EngineAccess.get().valuesInPlace(usual))).isTrue();
    Row integralDouble = Row.of(1L, 3.0, null, "a", true, null, null, null, null); // 3.0 is canonically a Long
    assertThat(fit.fits(EngineAccess.get().valuesInPlace(integralDouble))).as("left to the schema").isFalse();
  }

  @Test
  void aRowLeftToTheSchemaIsWrittenOrRefusedByIt() {
    Rivulet db = Rivulet.create();
    SourceCollection c = db.collection("t", Schema.parse("id INT NOT NULL, d DOUBLE, s STRING"), List.of("id"));
    SourceCollection.SyncBatch b = c.beginSync();
    b.write(Row.of(1L, 2.5, "a")).write(Row.of(2L, 3.0, "b")); // by class; by the schema (an integral DOUBLE)
    assertThatThrownBy(() -> b.write(Row.of(3L, "x", "c")))
        .isInstanceOf(SchemaException.class).hasMessageContaining("'t'").hasMessageContaining("'d'");
    assertThatThrownBy(() -> b.write(Row.of(null, 1.5, "c"))).isInstanceOf(SchemaException.class)
        .hasMessageContaining("'id'");
    b.commit();
    assertThat(c.rows()).containsExactlyInAnyOrder(Row.of(1L, 2.5, "a"), Row.of(2L, 3.0, "b"));
  }
}
