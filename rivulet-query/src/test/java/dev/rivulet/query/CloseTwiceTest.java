package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Closing is final and idempotent: a second {@code close()} of a collection or live query does
 * nothing, also for a live query that reads a lazy collection (whose demand plans the first close
 * released), and the database goes on.
 */
class CloseTwiceTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, v INT");

  @Test
  void aLiveQueryOverALazyCollectionClosesTwice() {
    Rivulet db = Rivulet.create();
    MemoryLazySource source = new MemoryLazySource(S, List.of("id"));
    source.put(Row.of(1, 10));
    LazyCollection lazy = db.lazyCollection("lazy", S, List.of("id"), source);
    LiveQuery q = db.liveQuery("q", Query.from("l", lazy));
    assertThat(q.rows()).containsExactly(Row.of(1, 10));
    q.close();
    q.close();
    assertThat(q.status()).isEqualTo(Status.CLOSED);
    LiveQuery again = db.liveQuery("again", Query.from("l", lazy));
    assertThat(again.rows()).containsExactly(Row.of(1, 10));
  }

  @Test
  void aSourceAndAnEagerLiveQueryCloseTwice() {
    Rivulet db = Rivulet.create();
    SourceCollection c = db.collection("c", S, List.of("id"));
    c.syncWrite(Row.of(1, 1));
    LiveQuery q = db.liveQuery("q", Query.from("c", c));
    q.close();
    q.close();
    c.close();
    c.close();
    assertThat(c.status()).isEqualTo(Status.CLOSED);
  }
}
