package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A key as a collection hands it out (typed: an INT beyond 64 bits as a {@link BigInteger}, a
 * DOUBLE as a {@code Double}, a DECIMAL as a {@link BigDecimal}) may be written back: a delete by
 * it, in a sync batch or an optimistic transaction, is checked by its canonical values, as a
 * written row is.
 */
class TypedKeyWrittenBackTest {
  private final Rivulet db = Rivulet.create();

  @Test
  void aTypedKeyBeyondSixtyFourBitsDeletesItsRow() {
    SourceCollection c = db.collection("c", Schema.parse("id INT NOT NULL, v INT"), List.of("id"));
    BigInteger big = BigInteger.ONE.shiftLeft(63);
    c.beginSync().write(Row.of(big, 1)).write(Row.of(big.add(BigInteger.ONE), 2)).write(Row.of(5, 3)).commit();
    List<KeyedRow> entries = c.entries();
    assertThat(entries).extracting(e -> e.key().get(0)).contains(big, big.add(BigInteger.ONE));
    for (KeyedRow e : entries) {
      if (e.row().get(1).equals(1L)) {
        c.beginSync().delete(e.key()).commit();
      } else if (e.row().get(1).equals(2L)) {
        db.transaction().delete(c, e.key()).apply();
      }
    }
    assertThat(c.rows()).containsExactly(Row.of(5, 3));
  }

  @Test
  void typedDoubleAndDecimalKeysDeleteTheirRows() {
    SourceCollection c = db.collection("c", Schema.parse("d DOUBLE NOT NULL, m DECIMAL NOT NULL, v INT"),
        List.of("d", "m"));
    c.beginSync().write(Row.of(2.0, new BigDecimal("0.10"), 1)).write(Row.of(0.5, 7, 2)).commit();
    for (KeyedRow e : c.entries()) {
      c.beginSync().delete(e.key()).commit();
    }
    assertThat(c.rows()).isEmpty();
  }
}
