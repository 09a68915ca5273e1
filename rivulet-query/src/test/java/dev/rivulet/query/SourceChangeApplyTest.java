package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SchemaException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link SourceCollection#apply}: a list of {@link SourceChange}s is one sync transaction, or nothing. */
class SourceChangeApplyTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection items = db.collection("items", Schema.parse("id INT NOT NULL, name STRING, w DOUBLE"),
      List.of("id"));

  SourceChangeApplyTest() {
    items.beginSync().write(Row.of(1, "a", 1.0)).write(Row.of(2, "b", 2.0)).markReady().commit();
  }

  @Test
  void aListOfChangesIsOneTransaction() {
    List<KeyedBatch> seen = new ArrayList<>();
    items.subscribe(SubscribeOptions.sync(), seen::add);
    long tx = db.lastTxId();
    items.apply(List.of(new SourceChange.Add(Row.of(3, "c", 3.0)),
        new SourceChange.Edit(Row.of(3, "c2", 3.5), Row.of(3, "c", 3.0)), // sees the add before it
        new SourceChange.Remove(Row.of(1, "a", 1.0)),
        new SourceChange.Edit(Row.of(2, "b2", 2.0), Row.of(2, "b", 2))));
    assertThat(db.lastTxId()).isEqualTo(tx + 1);
    assertThat(items.rows()).containsExactlyInAnyOrder(Row.of(2, "b2", 2.0), Row.of(3, "c2", 3.5));
    assertThat(seen).hasSize(1);
    assertThat(seen.get(0).txId()).isEqualTo(tx + 1);
    assertThat(seen.get(0).events()).extracting(ChangeEvent::type).containsExactlyInAnyOrder(
        ChangeEvent.Type.INSERT, ChangeEvent.Type.DELETE, ChangeEvent.Type.UPDATE);
  }

  @Test
  void aChangeThatDoesNotFitTheRowsRefusesTheWholeList() {
    Row b = Row.of(2, "b", 2.0);
    assertRefused(List.of(new SourceChange.Remove(b), new SourceChange.Add(Row.of(1, "x", 0.0))),
        "change 1 (Add[row=[1, 'x', 0]]): key [1] is present");
    assertRefused(List.of(new SourceChange.Add(Row.of(5, "e", 0.0)), new SourceChange.Remove(Row.of(1, "z", 1.0))),
        "change 1 (Remove[row=[1, 'z', 1]]): the current row of key [1] is [1, 'a', 1]");
    assertRefused(List.of(new SourceChange.Edit(Row.of(9, "n", 0.0), Row.of(9, "o", 0.0))),
        "change 0 (Edit[row=[9, 'n', 0], old=[9, 'o', 0]]): the current row of key [9] is absent");
    assertRefused(List.of(new SourceChange.Edit(Row.of(7, "b", 2.0), b)), "an edit must keep the key [2]");
    assertRefused(List.of(new SourceChange.Remove(b), new SourceChange.Remove(b)),
        "change 1 (Remove[row=[2, 'b', 2]]): the current row of key [2] is absent");
  }

  @Test
  void aRowThatDoesNotFitTheSchemaRefusesTheWholeList() {
    long tx = db.lastTxId();
    assertThatThrownBy(() -> items.apply(List.of(new SourceChange.Add(Row.of(4, "d", 0.0)),
        new SourceChange.Add(Row.of(5, 6, 0.0)))))
        .isInstanceOf(SchemaException.class).hasMessageContaining("collection 'items'").hasMessageContaining("name");
    assertThat(db.lastTxId()).isEqualTo(tx);
    assertThat(items.size()).isEqualTo(2);
  }

  @Test
  void theCurrentRowIsTheSyncedOneNotAPendingOptimisticWrite() {
    Transaction t = db.transaction().update(items, Row.of(1, "mine", 1.0));
    t.apply();
    items.apply(List.of(new SourceChange.Edit(Row.of(1, "server", 1.0), Row.of(1, "a", 1.0))));
    assertThat(items.get(Row.of(1))).contains(Row.of(1, "mine", 1.0)); // the optimistic write still shows
    t.rollback();
    assertThat(items.get(Row.of(1))).contains(Row.of(1, "server", 1.0));
    assertRefused(List.of(new SourceChange.Remove(Row.of(1, "a", 1.0))), "the current row of key [1] is [1, 'server', 1]");
  }

  @Test
  void aClosedCollectionOrANullListIsRefused() {
    assertThatThrownBy(() -> items.apply(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'items'");
    java.util.ArrayList<SourceChange> withNull = new java.util.ArrayList<>();
    withNull.add(null);
    assertThatThrownBy(() -> items.apply(withNull)).hasMessageContaining("change 0 (null) is null");
    items.close();
    assertThatThrownBy(() -> items.apply(List.of(new SourceChange.Add(Row.of(4, "d", 0.0)))))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
  }

  private void assertRefused(List<SourceChange> changes, String message) {
    long tx = db.lastTxId();
    List<Row> before = items.rows();
    assertThatThrownBy(() -> items.apply(changes)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("apply to 'items'").hasMessageContaining(message);
    assertThat(db.lastTxId()).isEqualTo(tx);
    assertThat(items.rows()).containsExactlyInAnyOrderElementsOf(before);
  }
}
