package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * What a collection's {@link LiveCollection#ready()} signal runs when it completes (a {@code
 * thenRun} registered before) sees one whole transaction, as every other listener does: the live
 * queries over the collection have installed the transaction that made it ready, and (the
 * transaction being over) creating a live query from it is not refused as a write from a callback.
 */
class ReadySignalAfterPublicationTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection s = db.collection("s", Schema.parse("id INT NOT NULL, v INT"), List.of("id"));

  @Test
  void aReadyActionSeesTheLiveQueriesOfTheTransactionThatMadeItReady() {
    LiveQuery q = db.liveQuery("q", Query.from("s", s));
    List<String> seen = new ArrayList<>();
    s.ready().thenRun(() -> seen.add("source " + s.rows().size() + ", query " + q.rows().size()));
    s.beginSync().write(Row.of(1, 1)).write(Row.of(2, 2)).markReady().commit();
    assertThat(seen).containsExactly("source 2, query 2");
  }

  @Test
  void aReadyActionMayCreateALiveQuery() {
    CompletableFuture<LiveQuery> made = s.ready().thenApply(v -> db.liveQuery("later", Query.from("s", s)));
    s.beginSync().write(Row.of(1, 1)).markReady().commit();
    assertThat(made).isCompleted();
    assertThat(made.join().rows()).containsExactly(Row.of(1, 1));
  }

  @Test
  void aReadyActionMayCommitATransactionThatMakesAnotherCollectionReady() {
    SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL"), List.of("id"));
    CompletableFuture<Void> tReady = t.ready();
    List<String> order = new ArrayList<>();
    s.ready().thenRun(() -> {
      order.add("s ready");
      t.beginSync().write(Row.of(7)).markReady().commit(); // settled at the end of this nested transaction
      order.add("t committed, ready " + tReady.isDone());
    });
    tReady.thenRun(() -> order.add("t ready with " + t.rows().size() + " row"));
    s.beginSync().write(Row.of(1, 1)).markReady().commit();
    assertThat(order).containsExactly("s ready", "t ready with 1 row", "t committed, ready true");
  }

  // The signal is made by the first ready() call; until then its first outcome is kept.

  @Test
  void aSignalFirstAskedForAfterTheCollectionBecameReadyIsDoneAndStaysSo() {
    s.beginSync().write(Row.of(1, 1)).markReady().commit();
    s.close();
    assertThat(s.ready()).isCompleted(); // ready first: the later close does not fail it
    assertThat(s.ready()).isSameAs(s.ready());
  }

  @Test
  void aSignalFirstAskedForAfterACloseFailsNamingTheCollection() {
    s.close();
    assertThat(s.ready()).isCompletedExceptionally();
    assertThat(s.ready().handle((v, e) -> e.getMessage()).join()).contains("'s'").contains("closed");
  }

  @Test
  void aSignalAskedForInsideTheTransactionThatMakesItReadyCompletesWhenTheTransactionEnds() {
    LiveQuery q = db.liveQuery("q", Query.from("s", s));
    List<Boolean> doneInside = new ArrayList<>();
    List<CompletableFuture<Void>> asked = new ArrayList<>();
    q.subscribe(batch -> {
      asked.add(s.ready());
      doneInside.add(s.ready().isDone());
    });
    s.beginSync().write(Row.of(1, 1)).markReady().commit();
    assertThat(doneInside).containsExactly(false);
    assertThat(asked.get(0)).isCompleted();
  }
}
