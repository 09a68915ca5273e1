package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lifecycles and bounds at the edges of the public API: a pull sink's calls out of order, its
 * bound and close; a live window after close; batches and sync transactions after commit; option
 * bounds; column references.
 */
class FaceLifecycleTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection items = db.collection("items", Schema.parse("id INT NOT NULL, p INT"), List.of("id"));
  private final SourceCollection other = db.collection("other", Schema.parse("id INT NOT NULL"), List.of("id"));

  private void write(long id, long p) {
    items.beginSync().write(Row.of(id, p)).commit();
  }

  @Test
  void changeSinkCallsOutOfOrderAndItsBound() {
    assertThatThrownBy(() -> items.changeSink(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1, not 0");
    ChangeSink sink = items.changeSink(1);
    assertThatThrownBy(sink::take).isInstanceOf(IllegalStateException.class).hasMessageContaining("hydrate() first");
    assertThat(sink.hydrate().changes()).isEmpty();
    assertThatThrownBy(sink::hydrate).isInstanceOf(IllegalStateException.class).hasMessageContaining("already hydrated");
    write(1, 1);
    assertThat(sink.take()).hasSize(1);
    assertThat(sink.take()).isEmpty();
    write(2, 2);
    write(3, 3);
    assertThatThrownBy(sink::take).isInstanceOf(SubscriptionOverflowException.class)
        .hasMessage("a subscriber fell more than 1 deliveries behind; its subscription ended (OVERFLOW)");
  }

  @Test
  void aClosedChangeSinkKeepsNothing() {
    ChangeSink sink = items.changeSink(10);
    sink.close(); // before hydrate: nothing to end
    ChangeSink live = items.changeSink(10);
    live.hydrate();
    write(1, 1);
    live.close();
    write(2, 2);
    assertThat(live.take()).as("neither the batch waiting at close nor later ones").isEmpty();
  }

  @Test
  void aClosedWindowCannotBeReanchoredAndALimitMustNotBeNegative() {
    write(1, 5);
    write(2, 7);
    LiveQuery top = db.liveQuery("top", Query.from("i", items).orderBy(Query.asc(col("i.p"))).limit(1));
    List<WindowBatch> seen = new ArrayList<>();
    LiveWindow w = top.subscribeWindow(SubscribeOptions.sync(), seen::add);
    assertThatThrownBy(() -> w.reanchor(null, -1)).isInstanceOf(QueryException.class)
        .hasMessageContaining("must not be negative, not -1");
    w.reanchor(null, 0);
    assertThat(w.snapshot().rows()).isEmpty();
    w.reanchor(null, 2);
    assertThat(w.snapshot().rows()).extracting(WindowSnapshot.Entry::row).containsExactly(Row.of(1, 5), Row.of(2, 7));
    w.close();
    assertThat(w.ended()).isCompletedWithValue(LiveCollection.End.CLOSED);
    assertThatThrownBy(() -> w.reanchor(null, 1)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("has ended");
  }

  @Test
  void aCommittedSyncBatchRefusesEverything() {
    SourceCollection.SyncBatch b = items.beginSync().write(Row.of(1, 1));
    b.commit();
    for (Runnable call : List.<Runnable>of(() -> b.write(Row.of(2, 2)), () -> b.delete(Row.of(1)), b::truncate,
        b::markReady, b::commit)) {
      assertThatThrownBy(call::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("already committed");
    }
    assertThat(items.rows()).containsExactly(Row.of(1, 1));
  }

  @Test
  void aCommittedSyncTransactionRefusesEverythingAndTruncateClearsFirst() {
    SyncTransaction t = db.beginSync().write(items, Row.of(1, 1)).write(items, Row.of(2, 2)).write(other, Row.of(9));
    t.commit();
    assertThatThrownBy(t::commit).isInstanceOf(IllegalStateException.class).hasMessageContaining("already committed");
    assertThatThrownBy(() -> t.write(items, Row.of(3, 3))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> t.markReady(items)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> t.write(db.collection("third", Schema.parse("id INT NOT NULL"), List.of("id")), Row.of(1)))
        .as("a collection the transaction never wrote").isInstanceOf(IllegalStateException.class);
    SyncTransaction empty = db.beginSync();
    empty.commit();
    assertThatThrownBy(empty::commit).as("no batches to refuse it").isInstanceOf(IllegalStateException.class);
    db.beginSync().truncate(items).write(items, Row.of(4, 4)).commit();
    assertThat(items.rows()).containsExactly(Row.of(4, 4));
    assertThat(other.rows()).containsExactly(Row.of(9));
  }

  @Test
  void optionBoundsAndOverflowMessages() {
    assertThatThrownBy(() -> SubscribeOptions.async(Runnable::run, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1, not 0");
    assertThat(SubscribeOptions.async(Runnable::run, 1).capacity()).isEqualTo(1);
    assertThat(new SubscriptionOverflowException(3, true))
        .hasMessage("a subscriber fell more than 3 deliveries behind; it gets a reset of the window when it catches up");
    assertThat(new WindowBatch(1, List.of()).isReset()).isFalse();
  }

  @Test
  void columnReferencesSplitAtTheFirstDot() {
    assertThat(Exprs.col("a.b")).isEqualTo(Exprs.col("a", "b"));
    assertThat(Exprs.col("a.b.c")).isEqualTo(new Expr.Col("a", "b.c"));
    for (String bad : List.of("ab", ".b", "a.", "")) {
      assertThatThrownBy(() -> Exprs.col(bad)).as(bad).isInstanceOf(QueryException.class)
          .hasMessageContaining("'" + bad + "'");
    }
  }

  @Test
  void aSubscriptionMadeInACallbackStartsAfterThatTransaction() {
    List<KeyedBatch> late = new ArrayList<>();
    List<LiveCollection.Subscription> made = new ArrayList<>();
    items.subscribe(events -> {
      if (made.isEmpty()) {
        made.add(items.subscribe(SubscribeOptions.sync().withInitialState(), late::add));
      }
    });
    write(1, 1);
    // Its initial state already holds row 1: the transaction that wrote it is not delivered again.
    assertThat(late).hasSize(1);
    assertThat(late.get(0).initial()).isTrue();
    assertThat(late.get(0).events()).extracting(ChangeEvent::key).containsExactly(Row.of(1));
    write(2, 2);
    assertThat(late).hasSize(2);
    assertThat(late.get(1).initial()).isFalse();
    assertThat(late.get(1).events()).extracting(ChangeEvent::key).containsExactly(Row.of(2));
  }
}
