package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Schema#check} settles a value of its column's usual class by an instanceof and leaves
 * the others to {@link ColumnType#accepts}: over every type and a canonical value of every kind
 * (the usual class of each type, integral and non-integral numbers, values beyond 64 bits), a
 * row passes exactly when {@code accepts} says so, and a NULL exactly when the column is nullable.
 */
class SchemaCheckKindsTest {
  private static final List<Object> VALUES = Arrays.asList(7L, -1L, Long.MAX_VALUE, 2.5, 1e300,
      Values.canonical(2.0), Values.canonical(new BigDecimal("123456789012345678901234567890")),
      Values.canonical(new BigDecimal("0.1")), "text", "", true, false, Bytes.of(new byte[] {1, 2}),
      LocalDate.of(2026, 12, 4), Instant.ofEpochSecond(1_800_000_000L), Values.canonical(Double.NaN));

  @Test
  void aValueFitsExactlyWhenItsTypeAcceptsIt() {
    for (ColumnType type : ColumnType.values()) {
      // the value under test sits between two other columns, so the loop's later columns are checked too
      Schema schema = Schema.of(Column.notNull("a", ColumnType.INT), Column.notNull("v", type),
          Column.of("b", ColumnType.STRING));
      for (Object v : VALUES) {
        Row row = Row.of(1L, v, null);
        if (type.accepts(v)) {
          schema.check(row);
        } else {
          assertThatThrownBy(() -> schema.check(row)).as("%s %s", type, v)
              .isInstanceOf(SchemaException.class).hasMessageContaining("'v' expects " + type);
        }
      }
      assertThatThrownBy(() -> schema.check(Row.of(1L, null, "x"))).as("%s NOT NULL", type)
          .isInstanceOf(SchemaException.class).hasMessageContaining("'v' is NOT NULL");
      Schema open = Schema.of(Column.of("v", type));
      open.check(Row.of((Object) null));
    }
  }

  @Test
  void everyTypeAcceptsSomeValueAndRejectsAnother() {
    // guards the table above: each type meets a value it accepts and (except ANY) one it rejects
    for (ColumnType type : ColumnType.values()) {
      List<Boolean> verdicts = new ArrayList<>();
      for (Object v : VALUES) {
        verdicts.add(type.accepts(v));
      }
      assertThat(verdicts).as("%s", type).contains(true);
      if (type != ColumnType.ANY) {
        assertThat(verdicts).as("%s", type).contains(false);
      }
    }
  }
}
