package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Typed rows ({@link Schema#present}): each value in its column's Java class for users, while
 * equality, hashing, order and everything the engine computes stay canonical.
 */
class TypedRowTest {
  private static final Schema S = Schema.parse("i INT, d DOUBLE, m DECIMAL, s STRING, b BOOL, t DATE, x ANY");

  @Test
  void eachTypeHasItsJavaClass() {
    assertThat(ColumnType.INT.present(5L)).isEqualTo(5L);
    assertThat(ColumnType.INT.present(0x1p63)).isEqualTo(BigInteger.ONE.shiftLeft(63));
    assertThat(ColumnType.INT.present(new BigDecimal("100000000000000000001")))
        .isEqualTo(BigInteger.TEN.pow(20).add(BigInteger.ONE));
    assertThat(ColumnType.DOUBLE.present(2L)).isEqualTo(2.0);
    assertThat(ColumnType.DOUBLE.present(1.5)).isEqualTo(1.5);
    assertThat(ColumnType.DOUBLE.present(Double.NaN)).isEqualTo(Double.NaN);
    assertThat(ColumnType.DECIMAL.present(2L)).isEqualTo(new BigDecimal("2"));
    assertThat(ColumnType.DECIMAL.present(0.375)).isEqualTo(new BigDecimal("0.375"));
    assertThat(ColumnType.DECIMAL.present(new BigDecimal("0.1"))).isEqualTo(new BigDecimal("0.1"));
    assertThat(ColumnType.DECIMAL.present(Double.POSITIVE_INFINITY)).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(ColumnType.STRING.present("a")).isEqualTo("a");
    assertThat(ColumnType.ANY.present(2L)).isEqualTo(2L);
    // presenting never changes the canonical value
    for (Object v : new Object[] {0x1p63, new BigDecimal("100000000000000000001"), 2L, 0.375, new BigDecimal("0.1"),
        Double.NaN}) {
      for (ColumnType t : ColumnType.values()) {
        if (t.accepts(v)) {
          assertThat(Values.canonical(t.present(v))).as("%s %s", t, v).isEqualTo(v);
        }
      }
    }
  }

  @Test
  void presentTypesARowThatStaysEqual() {
    Row canonical = Row.of(1, 2.0, new BigDecimal("2.50"), "a", true, LocalDate.of(2024, 5, 1), 3.0);
    Row typed = S.present(canonical);
    assertThat(typed.isTyped()).isTrue();
    assertThat(typed.toList()).containsExactly(1L, 2.0, new BigDecimal("2.5"), "a", true, LocalDate.of(2024, 5, 1), 3L);
    assertThat(typed.get(1)).isInstanceOf(Double.class);
    assertThat(typed).isEqualTo(canonical).hasSameHashCodeAs(canonical);
    assertThat(typed.compareTo(canonical)).isZero();
    assertThat(typed.toString()).isEqualTo(canonical.toString());
    assertThat(typed.getLong(1)).isEqualTo(2L);
    Row back = typed.canonical();
    assertThat(back.isTyped()).isFalse();
    assertThat(back.get(1)).isEqualTo(2L);
    assertThat(Row.of(typed.toList())).isEqualTo(canonical);
    // derived rows are canonical
    assertThat(typed.project(new int[] {1}).get(0)).isEqualTo(2L);
    assertThat(typed.with(0, 9).get(1)).isEqualTo(2L);
  }

  @Test
  void nothingToTypeIsTheRowItself() {
    Row r = Row.of(1, 1.5, new BigDecimal("0.1"), "a", null, null, null);
    assertThat(Schema.parse("i INT, d DOUBLE, m DECIMAL, s STRING, b BOOL, t DATE, x ANY").present(r)).isSameAs(r);
    Row s = Row.of("a", true);
    assertThat(Schema.parse("s STRING, b BOOL").present(s)).isSameAs(s);
  }

  @Test
  void inputsTakeTypedRowsInCanonicalForm() {
    Schema schema = Schema.parse("id INT NOT NULL, d DOUBLE");
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", schema).filter(r -> r.get(1) instanceof Long));
    Graph g = b.build();
    Row typed = schema.present(Row.of(1, 2.0));
    assertThat(typed.get(1)).isEqualTo(2.0);
    g.input("in").insert(typed);
    g.input("in").send(ZSet.of(List.of(schema.present(Row.of(2, 4.0)))));
    g.run();
    // the filter saw the canonical Long 2, not the Double shown to users
    assertThat(g.output("out").delta().toMap()).containsOnlyKeys(Row.of(1, 2), Row.of(2, 4));
  }

  @Test
  void aDoubleHoldsOnlyIntegersItRepresents() {
    assertThat(ColumnType.DOUBLE.accepts(1L << 53)).isTrue();
    assertThat(ColumnType.DOUBLE.accepts((1L << 53) + 1)).isFalse();
    assertThat(ColumnType.DOUBLE.accepts(Long.MAX_VALUE)).isFalse();
    assertThat(ColumnType.DOUBLE.accepts(Long.MIN_VALUE)).isTrue(); // -2^63 is a double
    assertThat(Values.isExactDouble(-(1L << 53) - 1)).isFalse();
    assertThat(ColumnType.DECIMAL.accepts((1L << 53) + 1)).isTrue();
    assertThat(Instant.EPOCH).isEqualTo(ColumnType.TIMESTAMP.present(Instant.EPOCH));
  }
}
