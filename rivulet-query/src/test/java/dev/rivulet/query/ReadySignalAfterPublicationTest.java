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
}
