package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.OperatorStats;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A custom key reduces the result inside the graph: congruent contributors are one row (with
 * their multiplicity), incongruent ones are a duplicate-key error that recovers.
 */
class PublicKeyReductionTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, g INT, v INT"), List.of("id"));

  @Test
  void aRowSupportedTwiceSurvivesOneRetraction() {
    t.beginSync().write(Row.of(1, 7, 0)).write(Row.of(2, 7, 0)).markReady().commit();
    LiveQuery q = db.liveQuery("g", Query.from("t", t).select(Query.as("g", col("t.g"))), List.of("g"));
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(q.rows()).containsExactly(Row.of(7));
    t.beginSync().delete(Row.of(1)).commit();
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(q.rows()).containsExactly(Row.of(7));
    t.beginSync().delete(Row.of(2)).commit();
    assertThat(q.rows()).isEmpty();
  }

  @Test
  void incongruentContributorsAreADuplicateKeyUntilOneGoes() {
    t.beginSync().write(Row.of(1, 7, 5)).markReady().commit();
    LiveQuery q = db.liveQuery("g", Query.from("t", t).select(Query.as("g", col("t.g")), Query.as("v", col("t.v")))
        .orderBy(Query.asc(col("t.v"))), List.of("g"));
    t.beginSync().write(Row.of(2, 7, 6)).commit();
    assertThat(q.status()).isEqualTo(Status.ERROR);
    assertThat(q.error()).hasMessageContaining("duplicate key [7]").hasMessageContaining("[7, 5]")
        .hasMessageContaining("[7, 6]");
    assertThat(q.rows()).containsExactly(Row.of(7, 5)); // the last published rows
    t.beginSync().write(Row.of(2, 7, 5)).commit(); // now congruent with id 1
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(q.rows()).containsExactly(Row.of(7, 5));
    t.beginSync().delete(Row.of(1)).commit();
    assertThat(q.rows()).containsExactly(Row.of(7, 5));
  }

  @Test
  void onlyACustomKeyAddsTheReduction() {
    t.beginSync().write(Row.of(1, 7, 5)).markReady().commit();
    Query q = Query.from("t", t).select(Query.as("g", col("t.g")), Query.as("v", col("t.v")));
    List<String> derived = db.liveQuery("derived", q).stats().stream().map(OperatorStats::name).toList();
    List<String> custom = db.liveQuery("custom", q, List.of("g")).stats().stream().map(OperatorStats::name).toList();
    assertThat(derived).noneMatch(n -> n.startsWith("reduce"));
    assertThat(custom).anyMatch(n -> n.startsWith("reduce"));
  }
}
