package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SchemaException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Misuse and bad input through the public API: each gets a clear error at the call that is
 * wrong, naming the collection, column and value, and changes nothing; the database keeps
 * working. Also the outcome of a write during which a live query fails: committed, published,
 * the failure on the query and at the error handler.
 */
class MisuseTest {
  private final Rivulet db = Rivulet.create();
  private final List<String> reported = new ArrayList<>();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, status STRING, priority INT"), List.of("id"));
  private final SourceCollection pairs = db.collection("pairs",
      Schema.parse("a INT NOT NULL, b STRING NOT NULL, v INT"), List.of("a", "b"));
  private final LiveQuery open;

  MisuseTest() {
    db.onError((c, e) -> reported.add(c.name() + ": " + e.getMessage()));
    issues.beginSync().write(Row.of(1, "open", 5)).write(Row.of(2, "closed", 7)).markReady().commit();
    pairs.beginSync().write(Row.of(1, "x", 0)).markReady().commit();
    open = db.liveQuery("open", Query.from("i", issues).where(eq(col("i.status"), lit("open"))));
  }

  /** What a refused call must leave as it was. */
  private String state() {
    return db.lastTxId() + " " + issues.rows() + " " + pairs.rows() + " " + open.rows() + " " + open.status();
  }

  @Test
  void aTransactionRefusesACollectionOfAnotherDatabase() {
    Rivulet other = Rivulet.create();
    SourceCollection theirs = other.collection("theirs", Schema.parse("id INT NOT NULL"), List.of("id"));
    theirs.beginSync().write(Row.of(1)).commit();
    LiveQuery watching = other.liveQuery("watching", Query.from("t", theirs));
    Transaction tx = db.transaction().insert(issues, Row.of(3, "open", 1));
    String before = state();
    assertThatThrownBy(() -> tx.insert(theirs, Row.of(2)))
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("'theirs'")
        .hasMessageContaining("another database");
    assertThatThrownBy(() -> tx.update(theirs, Row.of(1))).isInstanceOf(QueryException.class);
    assertThatThrownBy(() -> tx.delete(theirs, Row.of(1))).isInstanceOf(QueryException.class);
    assertThatThrownBy(() -> tx.insert(null, Row.of(2))).isInstanceOf(QueryException.class)
        .hasMessageContaining("collection is null");
    assertThat(state()).isEqualTo(before);
    tx.apply(); // the transaction's own writes still apply
    assertThat(issues.get(Row.of(3))).isPresent();
    assertThat(theirs.rows()).containsExactly(Row.of(1));
    assertThat(watching.rows()).containsExactly(Row.of(1));
    assertThat(other.lastTxId()).isEqualTo(1);
  }

  @Test
  void creatingACollectionOrALiveQueryFromAListenerIsRefusedAndTheDatabaseKeepsWorking() {
    List<Throwable> refused = new ArrayList<>();
    issues.subscribe(events -> {
      try {
        db.collection("late", Schema.parse("id INT NOT NULL"), List.of("id"));
      } catch (IllegalStateException e) {
        refused.add(e);
      }
      try {
        db.liveQuery("late", Query.from("i", issues));
      } catch (IllegalStateException e) {
        refused.add(e);
      }
    });
    issues.beginSync().write(Row.of(3, "open", 1)).commit();
    assertThat(refused).hasSize(2).allSatisfy(e -> assertThat(e).hasMessageContaining("from a callback"));
    assertThat(reported).isEmpty();
    // Later writes, queries and collections work, and every listener sees them.
    issues.beginSync().write(Row.of(4, "open", 2)).commit();
    assertThat(open.rows()).hasSize(3);
    assertThat(refused).hasSize(4);
    SourceCollection late = db.collection("late", Schema.parse("id INT NOT NULL"), List.of("id"));
    LiveQuery all = db.liveQuery("all", Query.from("i", issues));
    List<ChangeEvent> seen = new ArrayList<>();
    all.subscribe(seen::addAll);
    issues.beginSync().delete(Row.of(4)).commit();
    late.beginSync().write(Row.of(1)).commit();
    assertThat(seen).extracting(ChangeEvent::type).containsExactly(ChangeEvent.Type.DELETE);
    assertThat(all.rows()).hasSize(3);
    assertThat(late.rows()).containsExactly(Row.of(1));
  }

  @Test
  void closingAReanchoredWindowFromAListenerLeavesTheDatabaseWorking() {
    LiveQuery top = db.liveQuery("top", Query.from("i", issues).orderBy(Query.desc(col("i.priority"))).limit(1));
    LiveWindow w = top.subscribeWindow(SubscribeOptions.sync(), b -> { });
    w.reanchor(null, 2); // the window now follows a query of its own
    issues.subscribe(events -> w.close());
    issues.beginSync().write(Row.of(3, "open", 9)).commit(); // used to throw ConcurrentModificationException
    assertThat(w.ended()).isCompletedWithValue(LiveCollection.End.CLOSED);
    issues.beginSync().write(Row.of(4, "open", 10)).commit();
    assertThat(top.rows()).containsExactly(Row.of(4, "open", 10));
    assertThat(reported).isEmpty();
  }

  @Test
  void aDeleteWithAKeyOfTheWrongTypeOrArityIsRefusedAtTheCall() {
    String before = state();
    SourceCollection.SyncBatch b = issues.beginSync().write(Row.of(3, "open", 1));
    assertThatThrownBy(() -> b.delete(Row.of("1")))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("'issues'")
        .hasMessageContaining("key column 'id'")
        .hasMessageContaining("'1' (STRING)");
    assertThatThrownBy(() -> b.delete(Row.of(1, 2))).isInstanceOf(SchemaException.class)
        .hasMessageContaining("'issues'").hasMessageContaining("2 values").hasMessageContaining("[id]");
    assertThatThrownBy(() -> b.delete(Row.of((Object) null))).isInstanceOf(SchemaException.class)
        .hasMessageContaining("key column 'id' is id INT NOT NULL").hasMessageContaining("NULL");
    assertThatThrownBy(() -> b.delete(null)).isInstanceOf(SchemaException.class)
        .hasMessageContaining("'issues'").hasMessageContaining("key is null");
    assertThatThrownBy(() -> b.write(null)).isInstanceOf(SchemaException.class)
        .hasMessageContaining("'issues'").hasMessageContaining("row is null");
    assertThatThrownBy(() -> pairs.beginSync().delete(Row.of("x", 1))).isInstanceOf(SchemaException.class)
        .hasMessageContaining("'pairs'").hasMessageContaining("key column 'a'");
    assertThat(state()).isEqualTo(before);
    b.commit(); // the batch holds only its valid write
    assertThat(issues.rows()).hasSize(3);

    Transaction tx = db.transaction();
    assertThatThrownBy(() -> tx.delete(issues, Row.of("1"))).isInstanceOf(SchemaException.class)
        .hasMessageContaining("key column 'id'");
    assertThatThrownBy(() -> tx.delete(pairs, Row.of(1))).isInstanceOf(SchemaException.class)
        .hasMessageContaining("'pairs'").hasMessageContaining("[a, b]");
    assertThatThrownBy(() -> tx.delete(issues, null)).isInstanceOf(SchemaException.class)
        .hasMessageContaining("key is null");
    assertThatThrownBy(() -> tx.insert(issues, null)).isInstanceOf(SchemaException.class)
        .hasMessageContaining("row is null");
    assertThatThrownBy(() -> tx.update(issues, Row.of(1.5, "open", 1))).isInstanceOf(SchemaException.class)
        .hasMessageContaining("'id' expects INT");
    assertThatThrownBy(() -> db.beginSync().delete(issues, Row.of(true))).isInstanceOf(SchemaException.class)
        .hasMessageContaining("key column 'id'");
    assertThatThrownBy(() -> db.beginSync().write(null, Row.of(1))).isInstanceOf(QueryException.class);
    tx.delete(pairs, Row.of(1, "x")).apply(); // valid keys still work, numbers canonical
    assertThat(pairs.rows()).isEmpty();
  }

  @Test
  void writesToAClosedCollectionAreRefusedAtTheWriteCall() {
    SourceCollection.SyncBatch early = issues.beginSync().write(Row.of(3, "open", 1));
    SyncTransaction spanning = db.beginSync().write(pairs, Row.of(2, "y", 1)).write(issues, Row.of(5, "open", 1));
    Transaction tx = db.transaction().insert(issues, Row.of(6, "open", 1));
    issues.close();
    String before = state();
    assertThatThrownBy(() -> issues.beginSync().write(Row.of(4, "open", 1)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("'issues' is closed");
    assertThatThrownBy(() -> issues.beginSync().delete(Row.of(1))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> early.write(Row.of(4, "open", 1))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> early.delete(Row.of(1))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(early::markReady).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> db.beginSync().write(issues, Row.of(4, "open", 1)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("'issues' is closed");
    assertThatThrownBy(() -> db.beginSync().delete(issues, Row.of(1))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> tx.insert(issues, Row.of(7, "open", 1))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> tx.update(issues, Row.of(1, "open", 1))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> tx.delete(issues, Row.of(1))).isInstanceOf(IllegalStateException.class);
    // Collected before the close: the commit and the apply are refused whole.
    assertThatThrownBy(early::commit).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(spanning::commit).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(tx::apply).isInstanceOf(IllegalStateException.class);
    assertThat(state()).isEqualTo(before);
    assertThat(tx.state()).isEqualTo(Transaction.State.OPEN);
  }

  @Test
  void settlingATransactionLeavesACollectionClosedSinceAsItWas() {
    // Decision: confirm and rollback settle the open collections and skip a closed one, whose
    // rows stay as they were when it was closed (the optimistic ones included).
    Transaction rolled = db.transaction().update(issues, Row.of(1, "open", 50)).insert(pairs, Row.of(2, "y", 1));
    rolled.apply();
    Transaction confirmed = db.transaction().update(issues, Row.of(2, "open", 70)).update(pairs, Row.of(1, "x", 9));
    confirmed.apply();
    List<Row> atClose = issues.rows();
    issues.close();
    rolled.rollback();
    assertThat(rolled.state()).isEqualTo(Transaction.State.ROLLED_BACK);
    assertThat(issues.rows()).isEqualTo(atClose); // it used to show the synced row of key 1 again
    assertThat(pairs.rows()).containsExactly(Row.of(1, "x", 9));
    confirmed.confirm();
    assertThat(confirmed.state()).isEqualTo(Transaction.State.CONFIRMED);
    assertThat(issues.rows()).isEqualTo(atClose);
    assertThat(pairs.rows()).containsExactly(Row.of(1, "x", 9));
    assertThat(issues.status()).isEqualTo(Status.CLOSED);
  }

  @Test
  void aWriteDuringWhichALiveQueryFailsIsCommittedPublishedAndReported() {
    LiveQuery byStatus = db.liveQuery("byStatus", Query.from("i", issues)
        .select(Query.as("status", col("i.status")), Query.as("priority", col("i.priority"))), List.of("status"));
    assertThat(byStatus.status()).isEqualTo(Status.READY);
    List<ChangeEvent> seen = new ArrayList<>();
    open.subscribe(seen::addAll);
    long tx = db.lastTxId();

    issues.beginSync().write(Row.of(3, "open", 1)).commit(); // two open issues: byStatus fails; no throw
    assertThat(db.lastTxId()).isEqualTo(tx + 1);
    assertThat(issues.rows()).hasSize(3);
    assertThat(open.rows()).hasSize(2);
    assertThat(seen).hasSize(1);
    assertThat(byStatus.status()).isEqualTo(Status.ERROR);
    assertThat(byStatus.error()).hasMessageContaining("duplicate key ['open']");
    assertThat(reported).containsExactly("byStatus: " + byStatus.error().getMessage());

    // An optimistic transaction: apply, rollback and confirm each return normally too.
    issues.beginSync().delete(Row.of(3)).commit();
    assertThat(byStatus.status()).isEqualTo(Status.READY);
    Transaction t = db.transaction().insert(issues, Row.of(4, "closed", 2));
    t.apply();
    assertThat(t.state()).isEqualTo(Transaction.State.PENDING);
    assertThat(byStatus.status()).isEqualTo(Status.ERROR);
    assertThat(issues.get(Row.of(4))).isPresent();
    t.rollback();
    assertThat(byStatus.status()).isEqualTo(Status.READY);
    assertThat(issues.get(Row.of(4))).isEmpty();
    Transaction u = db.transaction().insert(issues, Row.of(4, "closed", 2));
    u.apply();
    u.confirm();
    assertThat(u.state()).isEqualTo(Transaction.State.CONFIRMED);
    assertThat(issues.get(Row.of(4))).isPresent();
    assertThat(byStatus.status()).isEqualTo(Status.ERROR);
    assertThat(reported).hasSize(3).allSatisfy(m -> assertThat(m).startsWith("byStatus: live query 'byStatus': duplicate key"));
    assertThat(db.lastTxId()).isEqualTo(tx + 6);
  }
}
