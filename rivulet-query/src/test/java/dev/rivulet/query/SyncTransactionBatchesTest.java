package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A {@link SyncTransaction} keeps the batch of the first collection it writes in fields and starts
 * its map of batches with a second collection: a one-collection transaction publishes exactly
 * what the collection's own {@link SourceCollection.SyncBatch} publishes, and a transaction that
 * moves on to a second collection keeps the first one's writes, in order, in its one transaction.
 */
class SyncTransactionBatchesTest {
  private final Rivulet db = Rivulet.create();
  private final Schema schema = Schema.parse("id INT NOT NULL, v STRING");
  private final SourceCollection viaTx = db.collection("viaTx", schema, List.of("id"));
  private final SourceCollection viaBatch = db.collection("viaBatch", schema, List.of("id"));
  private final SourceCollection other = db.collection("other", schema, List.of("id"));

  private static List<List<ChangeEvent>> record(SourceCollection c) {
    List<List<ChangeEvent>> out = new ArrayList<>();
    c.subscribe(out::add);
    return out;
  }

  @Test
  void aOneCollectionTransactionPublishesWhatTheCollectionsOwnBatchPublishes() {
    List<List<ChangeEvent>> tx = record(viaTx);
    List<List<ChangeEvent>> batch = record(viaBatch);
    long start = db.lastTxId();
    db.beginSync().write(viaTx, Row.of(1, "a")).write(viaTx, Row.of(2, "b")).commit();
    viaBatch.beginSync().write(Row.of(1, "a")).write(Row.of(2, "b")).commit();
    db.beginSync().write(viaTx, Row.of(1, "c")).delete(viaTx, Row.of(2)).write(viaTx, Row.of(3, "d")).commit();
    viaBatch.beginSync().write(Row.of(1, "c")).delete(Row.of(2)).write(Row.of(3, "d")).commit();
    db.beginSync().write(viaTx, Row.of(3, "e")).commit();
    viaBatch.beginSync().write(Row.of(3, "e")).commit();
    assertThat(db.lastTxId() - start).isEqualTo(6);
    assertThat(viaTx.rows()).containsExactlyInAnyOrder(Row.of(1, "c"), Row.of(3, "e"))
        .containsExactlyInAnyOrderElementsOf(viaBatch.rows());
    assertThat(tx).hasSize(3).isEqualTo(batch);
  }

  @Test
  void aSecondCollectionKeepsTheFirstOnesWritesInOrderInOneTransaction() {
    List<List<ChangeEvent>> first = record(viaTx);
    List<List<ChangeEvent>> second = record(other);
    long start = db.lastTxId();
    db.beginSync().write(viaTx, Row.of(1, "a")).write(other, Row.of(7, "x")).write(viaTx, Row.of(1, "b"))
        .write(viaTx, Row.of(2, "c")).delete(other, Row.of(7)).write(other, Row.of(8, "y")).commit();
    assertThat(db.lastTxId() - start).isEqualTo(1);
    assertThat(viaTx.rows()).containsExactlyInAnyOrder(Row.of(1, "b"), Row.of(2, "c"));
    assertThat(other.rows()).containsExactly(Row.of(8, "y"));
    assertThat(first).hasSize(1);
    assertThat(second).hasSize(1);
    assertThat(first.get(0)).extracting(ChangeEvent::value).containsExactlyInAnyOrder(Row.of(1, "b"), Row.of(2, "c"));
  }

  @Test
  void anEmptyTransactionStillCommitsOneTransaction() {
    long start = db.lastTxId();
    db.beginSync().commit();
    assertThat(db.lastTxId() - start).isEqualTo(1);
  }
}
