package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A closed collection or live query leaves the database's transactions ({@code collectionCount}):
 * closing many does not grow the database, a collection closed from a callback is forgotten when
 * the transaction publishing ends, and the live queries reading a closed source still fail.
 */
class ClosedCollectionsTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, qty INT");

  @Test
  void closedCollectionsAndLiveQueriesAreForgotten() {
    Rivulet db = Rivulet.create();
    SourceCollection kept = db.collection("kept", S, List.of("id"));
    int base = db.collectionCount();
    for (int i = 0; i < 50; i++) {
      SourceCollection c = db.collection("c" + i, S, List.of("id"));
      LiveQuery q = db.liveQuery("q" + i, Query.from("c", c).where(gt(col("c.qty"), lit(0))));
      LiveQuery other = db.liveQuery("k" + i, Query.from("k", kept));
      c.close();
      assertThat(q.status()).isEqualTo(Status.ERROR); // its source closed
      q.close();
      other.close();
    }
    assertThat(db.collectionCount()).isEqualTo(base);
    insert(kept, 1L); // the database goes on
    assertThat(kept.rows()).containsExactly(Row.of(1L, 1L));
  }

  @Test
  void aCollectionClosedFromACallbackIsForgottenWhenThePublicationEnds() {
    Rivulet db = Rivulet.create();
    SourceCollection src = db.collection("src", S, List.of("id"));
    SourceCollection doomed = db.collection("doomed", S, List.of("id"));
    LiveQuery reader = db.liveQuery("reader", Query.from("d", doomed));
    int before = db.collectionCount();
    List<Integer> during = new ArrayList<>();
    src.subscribe(events -> {
      if (!events.isEmpty() && during.isEmpty()) { // the first insert's callback
        doomed.close();
        during.add(db.collectionCount());
      }
    });
    insert(src, 1L);
    assertThat(during).containsExactly(before); // the transaction publishing is left whole
    assertThat(db.collectionCount()).isEqualTo(before - 1);
    insert(src, 2L); // the next transaction fails the reader, naming the closed source
    assertThat(reader.status()).isEqualTo(Status.ERROR);
    assertThat(reader.error()).hasMessageContaining("doomed");
  }

  private static void insert(SourceCollection c, long id) {
    c.apply(List.of(new SourceChange.Add(Row.of(id, 1L))));
  }
}
