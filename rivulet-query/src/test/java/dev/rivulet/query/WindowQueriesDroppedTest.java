package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A re-anchored {@link LiveWindow} follows a live query of its own; the one it leaves (at the next
 * reanchor, or at close) is dropped, and the user's query is never dropped. Seen from outside:
 * when the source is closed, the error handler hears only of live queries that still exist, so
 * it names the user's query and no window's own.
 */
class WindowQueriesDroppedTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection items = db.collection("items", Schema.parse("id INT NOT NULL, p INT"), List.of("id"));
  private final List<String> reported = new ArrayList<>();

  private LiveQuery top() {
    db.onError((c, e) -> reported.add(c.name()));
    SourceCollection.SyncBatch b = items.beginSync();
    for (long i = 1; i <= 6; i++) {
      b.write(Row.of(i, 10 - i));
    }
    b.markReady().commit();
    return db.liveQuery("top", Query.from("i", items).orderBy(Query.asc(col("i.p"))).limit(2));
  }

  @Test
  void theQueriesAWindowLeavesAreDroppedAndTheUsersQueryStays() {
    LiveQuery top = top();
    LiveWindow w = top.subscribeWindow(SubscribeOptions.sync(), b -> {});
    w.reanchor(null, 3); // follows top#window1
    assertThat(top.status()).as("the user's query is not dropped").isEqualTo(Status.READY);
    w.reanchor(null, 4); // follows top#window2: top#window1 is dropped
    assertThat(w.snapshot().rows()).hasSize(4);
    items.beginSync().write(Row.of(7L, 0L)).commit();
    assertThat(top.rows()).as("the user's query still follows its source").contains(Row.of(7, 0));
    w.close(); // top#window2 is dropped
    items.close();
    assertThat(reported).as("failures reported when the source closed").containsExactly("top");
  }

  @Test
  void closingAWindowThatNeverMovedLeavesTheUsersQuery() {
    LiveQuery top = top();
    LiveWindow w = top.subscribeWindow(SubscribeOptions.sync(), b -> {});
    w.close();
    assertThat(top.status()).isEqualTo(Status.READY);
    items.beginSync().write(Row.of(7L, 0L)).commit();
    assertThat(top.rows()).contains(Row.of(7, 0));
  }
}
