package dev.rivulet.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The text form of histories: readable, and parsing it gives back an equal history. */
class HistoryTextTest {
  static final Schema EVERY_TYPE = Schema.parse(
      "i INT, d DOUBLE, m DECIMAL, s STRING, b BOOL, y BYTES, t DATE, ts TIMESTAMP, x ANY, n INT NOT NULL");

  @Test
  void generatedHistoriesRoundTrip() {
    HistoryGenerator gen = HistoryGenerator.over(Map.of("every", EVERY_TYPE, "other.in-put_2", EVERY_TYPE))
        .withDomainSize(12).withNullRate(0.3);
    for (long seed : Seeds.runs(200)) {
      History h = gen.generate(seed);
      String text = h.toText();
      assertThat(History.parse(text)).as("seed %d:\n%s", seed, text).isEqualTo(h);
      assertThat(History.parse(text).toText()).isEqualTo(text);
    }
  }

  @Test
  void awkwardValuesRoundTrip() {
    Row row = Row.of(Long.MIN_VALUE, Long.MAX_VALUE, 0.1, new BigDecimal("0.1"), new BigDecimal("1E+40"),
        new BigDecimal("-123456789012345678901234567890.5"), Double.NaN, Double.NEGATIVE_INFINITY, 1e300, 4.9e-324,
        "", "it's", "back\\slash", "line\nbreak", "tab\tand\u0001", "\ud834\udd1e", "\ud834", "é,]['", true, false,
        new byte[0], new byte[] {0, (byte) 0xff}, LocalDate.of(-5, 1, 1), Instant.parse("2024-02-29T12:00:00.123456789Z"),
        null);
    History h = History.of(History.Step.of(new History.Change("a", row, 3), new History.Change("a", row, -2)),
        History.Step.of());
    History back = History.parse(h.toText());
    assertThat(back).isEqualTo(h);
    // A double and a decimal of different value stay apart.
    assertThat(back.step(0).changes().get(0).row().get(2)).isEqualTo(0.1);
    assertThat(back.step(0).changes().get(0).row().get(3)).isEqualTo(new BigDecimal("0.1"));
  }

  @Test
  void readsTheDocumentedFormat() {
    History h = History.parse("""
        # a comment

        step 0
          orders +1 [1, 'ann', NULL, 2.5, 0.1d, DATE '2024-01-02']
          orders -1 [1, 'ann', NULL, 2.5, 0.1d, DATE '2024-01-02']
        step 1
          lines +2 [7, TRUE, x'00ff', TIMESTAMP '2024-01-01T00:00:00Z']
        """);
    assertThat(h.size()).isEqualTo(2);
    assertThat(h.step(0).changes()).containsExactly(
        History.Change.insert("orders", Row.of(1, "ann", null, 2.5, 0.1, LocalDate.of(2024, 1, 2))),
        History.Change.delete("orders", Row.of(1, "ann", null, 2.5, 0.1, LocalDate.of(2024, 1, 2))));
    assertThat(h.step(1).changes()).containsExactly(new History.Change("lines",
        Row.of(7, true, new byte[] {0, (byte) 0xff}, Instant.parse("2024-01-01T00:00:00Z")), 2));
  }

  @Test
  void rendersReadably() {
    History h = History.of(History.Step.of(History.Change.insert("a", Row.of(1, "x", null)),
        new History.Change("a", Row.of(2, 1.5, new BigDecimal("0.1")), -3)));
    assertThat(h.toText()).isEqualTo("step 0\n  a +1 [1, 'x', NULL]\n  a -3 [2, 1.5d, 0.1]\n");
  }

  @Test
  void errorsNameLineAndColumn() {
    assertThatThrownBy(() -> History.parse("step\n  a +1 [1, 'x'\n"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2");
    assertThatThrownBy(() -> History.parse("  a +1 [1]\n"))
        .hasMessageContaining("line 1").hasMessageContaining("before the first 'step'");
    assertThatThrownBy(() -> History.parse("step\n  a 1 [1]\n")).hasMessageContaining("signed weight");
    assertThatThrownBy(() -> History.parse("step\n  a +0 [1]\n")).hasMessageContaining("non-zero");
    assertThatThrownBy(() -> History.parse("step\n  a +1 [1, bogus]\n")).hasMessageContaining("'bogus'");
    assertThatThrownBy(() -> History.parse("step\n  a +1 [1] extra\n")).hasMessageContaining("extra");
    assertThatThrownBy(() -> History.parse("step\n  a +1 ['\\q']\n")).hasMessageContaining("escape");
  }

  @Test
  void traceCarriesItsScenario() {
    History h = History.parse("step\n  t +1 [1]\n");
    Trace t = new Trace("topk-asc", h);
    String text = t.toText("seed 5\nsecond line");
    assertThat(text).startsWith("# seed 5\n# second line\nscenario topk-asc\nstep 0\n");
    assertThat(Trace.parse(text)).isEqualTo(t);
    assertThatThrownBy(() -> Trace.parse("step\n  t +1 [1]\n")).hasMessageContaining("scenario");
    assertThatThrownBy(() -> Trace.parse("scenario x\nstep\n  t +1 [oops]\n")).hasMessageContaining("line 3");
  }

  @Test
  void randomUnicodeStringsRoundTrip() {
    Random r = new Random(1);
    for (int i = 0; i < 500; i++) {
      StringBuilder sb = new StringBuilder();
      for (int j = r.nextInt(6); j > 0; j--) {
        sb.append((char) r.nextInt(0x10000));
      }
      Row row = Row.of(sb.toString());
      assertThat(HistoryText.parseRow(HistoryText.renderRow(row))).isEqualTo(row);
    }
  }
}
