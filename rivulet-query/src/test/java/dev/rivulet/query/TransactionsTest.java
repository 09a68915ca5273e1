package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The optimistic-write rules of {@link SourceCollection} and {@link Transaction}. */
class TransactionsTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection todos = db.collection("todos",
      Schema.parse("id INT NOT NULL, title STRING, done BOOL"), List.of("id"));
  private final LiveQuery open;

  TransactionsTest() {
    todos.beginSync().write(Row.of(1, "a", false)).write(Row.of(2, "b", false)).markReady().commit();
    open = db.liveQuery("open", Query.from("t", todos).where(eq(col("t.done"), lit(false))));
  }

  @Test
  void laterPendingWriteWinsAndRollingBackTheEarlierKeepsTheLater() {
    Transaction first = db.transaction();
    first.update(todos, Row.of(1, "first", false)).apply();
    Transaction second = db.transaction();
    second.update(todos, Row.of(1, "second", false)).apply();
    assertThat(open.get(Row.of(1))).contains(Row.of(1, "second", false));
    first.rollback();
    assertThat(open.get(Row.of(1))).contains(Row.of(1, "second", false));
    second.rollback();
    assertThat(open.get(Row.of(1))).contains(Row.of(1, "a", false));
  }

  @Test
  void syncUnderAPendingWriteShowsAfterRollback() {
    Transaction tx = db.transaction();
    tx.update(todos, Row.of(1, "mine", true)).apply();
    assertThat(open.get(Row.of(1))).isEmpty();
    todos.beginSync().write(Row.of(1, "server", false)).commit();
    assertThat(todos.get(Row.of(1))).contains(Row.of(1, "mine", true)); // optimistic still visible
    tx.rollback();
    assertThat(open.get(Row.of(1))).contains(Row.of(1, "server", false));
  }

  @Test
  void confirmReplacesWhatSyncWroteMeanwhile() {
    Transaction tx = db.transaction();
    tx.update(todos, Row.of(2, "mine", false)).apply();
    todos.beginSync().write(Row.of(2, "server", false)).commit();
    tx.confirm();
    assertThat(open.get(Row.of(2))).contains(Row.of(2, "mine", false));
  }

  @Test
  void invalidWritesAreRejectedAndRecordNothing() {
    Transaction tx = db.transaction();
    assertThatThrownBy(() -> tx.insert(todos, Row.of(1, "dup", false))).hasMessageContaining("already exists");
    assertThatThrownBy(() -> tx.update(todos, Row.of(9, "x", false))).hasMessageContaining("no row with key [9]");
    assertThatThrownBy(() -> tx.insert(todos, Row.of(3, "x", "yes"))).hasMessageContaining("done");
    tx.insert(todos, Row.of(3, "c", false)).apply();
    assertThat(open.rows()).hasSize(3);
    assertThatThrownBy(tx::apply).isInstanceOf(IllegalStateException.class);
    tx.confirm();
    assertThatThrownBy(tx::rollback).isInstanceOf(IllegalStateException.class);
    assertThat(open.rows()).hasSize(3);
  }

  @Test
  void deleteThenInsertInOneTransaction() {
    Transaction tx = db.transaction();
    tx.delete(todos, Row.of(1)).insert(todos, Row.of(1, "again", false)).apply();
    assertThat(open.get(Row.of(1))).contains(Row.of(1, "again", false));
    tx.rollback();
    assertThat(open.get(Row.of(1))).contains(Row.of(1, "a", false));
  }

  @Test
  void readinessFollowsSources() {
    SourceCollection later = db.collection("later", Schema.parse("id INT NOT NULL"), List.of("id"));
    LiveQuery q = db.liveQuery("q", Query.from("l", later));
    assertThat(q.status()).isEqualTo(Status.IDLE);
    assertThat(q.ready()).isNotDone();
    later.beginSync().write(Row.of(1)).commit();
    assertThat(q.status()).isEqualTo(Status.LOADING);
    later.beginSync().markReady().commit();
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(q.ready()).isDone();
  }

  @Test
  void aListenerThatWritesIsRefusedAndTheTransactionStands() {
    List<Throwable> refused = new java.util.ArrayList<>();
    open.subscribe(events -> {
      try {
        todos.beginSync().write(Row.of(9, "from a listener", false)).commit();
      } catch (IllegalStateException e) {
        refused.add(e);
      }
    });
    todos.beginSync().write(Row.of(3, "c", false)).commit();
    assertThat(refused).singleElement().extracting(Throwable::getMessage).asString()
        .contains("a listener must not write");
    assertThat(open.rows()).hasSize(3);
    todos.beginSync().write(Row.of(4, "d", false)).commit(); // later writes work
    assertThat(open.rows()).hasSize(4);
  }

  @Test
  void closedCollectionsRefuseWritesAndClosedQueriesStopRunning() {
    List<List<ChangeEvent>> calls = new java.util.ArrayList<>();
    open.subscribe(calls::add);
    open.close();
    todos.beginSync().write(Row.of(3, "c", false)).commit();
    assertThat(open.status()).isEqualTo(Status.CLOSED);
    assertThat(open.rows()).hasSize(2); // the last rows stay readable
    assertThat(calls).isEmpty();

    todos.close();
    assertThatThrownBy(() -> todos.beginSync().write(Row.of(4, "d", false)).commit())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("'todos' is closed");
    assertThatThrownBy(() -> db.transaction().insert(todos, Row.of(5, "e", false)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    assertThat(todos.rows()).hasSize(3);
    assertThat(todos.status()).isEqualTo(Status.CLOSED);
  }
}
