package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.mul;
import static dev.rivulet.query.Exprs.sum;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code sum} over an INT is an exact DECIMAL (Aggregate: "sum is typed DECIMAL over INT"), also
 * when a summand is an integer beyond 64 bits that a double holds (2^63, canonically a {@code
 * Double}, as INT arithmetic or an INT column carries it): such a value is an integer, not a
 * double, so the sum must not be rounded to a double.
 */
class SumOfIntsPastSixtyFourBitsTest {
  private static final BigInteger TWO_TO_63 = BigInteger.ONE.shiftLeft(63);

  private final Rivulet db = Rivulet.create();
  private final SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, v INT, w INT"),
      List.of("id"));

  @Test
  void aSumOverAnIntColumnHoldingTwoToThe63IsExact() {
    t.beginSync().write(Row.of(1, TWO_TO_63, 0)).write(Row.of(2, 1, 0)).commit();
    LiveQuery q = db.liveQuery("q", Query.from("t", t).select(Query.as("s", sum(col("t.v")))));
    assertThat(q.rows()).containsExactly(Row.of(new BigDecimal(TWO_TO_63.add(BigInteger.ONE))));
    assertThat(q.rows().get(0).get(0)).isEqualTo(new BigDecimal(TWO_TO_63.add(BigInteger.ONE)));
  }

  @Test
  void aSumOfIntProductsPastSixtyFourBitsIsExact() {
    t.beginSync().write(Row.of(1, 1L << 62, 2)).write(Row.of(2, 1, 1)).write(Row.of(3, 3, 1)).commit();
    LiveQuery q = db.liveQuery("q", Query.from("t", t).select(Query.as("s", sum(mul(col("t.v"), col("t.w"))))));
    BigInteger want = TWO_TO_63.add(BigInteger.valueOf(4));
    assertThat(q.rows()).containsExactly(Row.of(new BigDecimal(want)));
    t.beginSync().delete(Row.of(3)).commit();
    assertThat(q.rows()).containsExactly(Row.of(new BigDecimal(want.subtract(BigInteger.valueOf(3)))));
  }
}
