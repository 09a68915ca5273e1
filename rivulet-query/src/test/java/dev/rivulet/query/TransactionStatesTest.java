package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An optimistic transaction's states: each call is accepted only in its state, and a refused call changes nothing. */
class TransactionStatesTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection items = db.collection("items", Schema.parse("id INT NOT NULL, p INT"), List.of("id"));

  @Test
  void writesOnlyWhileOpenSettlingOnlyWhilePending() {
    items.beginSync().write(Row.of(1, 1)).markReady().commit();
    Transaction tx = db.transaction();
    assertThat(tx.state()).isEqualTo(Transaction.State.OPEN);
    assertThatThrownBy(tx::confirm).isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot confirm a transaction that is OPEN");
    assertThatThrownBy(tx::rollback).isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot roll back a transaction that is OPEN");
    tx.insert(items, Row.of(2, 2)).apply();
    assertThat(tx.state()).isEqualTo(Transaction.State.PENDING);
    assertThatThrownBy(() -> tx.insert(items, Row.of(3, 3))).isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot write to a transaction that is PENDING");
    assertThatThrownBy(() -> tx.update(items, Row.of(1, 9))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> tx.delete(items, Row.of(1))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(tx::apply).isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot apply a transaction that is PENDING");
    assertThat(items.rows()).containsExactlyInAnyOrder(Row.of(1, 1), Row.of(2, 2));
    tx.confirm();
    assertThat(tx.state()).isEqualTo(Transaction.State.CONFIRMED);
    assertThatThrownBy(tx::confirm).isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot confirm a transaction that is CONFIRMED");
    assertThatThrownBy(tx::rollback).isInstanceOf(IllegalStateException.class);
    assertThat(items.rows()).containsExactlyInAnyOrder(Row.of(1, 1), Row.of(2, 2));
  }

  @Test
  void aRolledBackTransactionIsDone() {
    items.beginSync().write(Row.of(1, 1)).markReady().commit();
    Transaction tx = db.transaction();
    tx.update(items, Row.of(1, 5)).apply();
    assertThat(items.rows()).containsExactly(Row.of(1, 5));
    tx.rollback();
    assertThat(tx.state()).isEqualTo(Transaction.State.ROLLED_BACK);
    assertThat(items.rows()).containsExactly(Row.of(1, 1));
    assertThatThrownBy(tx::rollback).isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot roll back a transaction that is ROLLED_BACK");
    assertThatThrownBy(tx::confirm).isInstanceOf(IllegalStateException.class);
    assertThat(items.rows()).containsExactly(Row.of(1, 1));
  }

  @Test
  void applyRefusesAClosedCollectionAndChangesNothing() {
    items.beginSync().write(Row.of(1, 1)).markReady().commit();
    SourceCollection other = db.collection("other", Schema.parse("id INT NOT NULL"), List.of("id"));
    Transaction tx = db.transaction().insert(items, Row.of(2, 2)).insert(other, Row.of(7));
    other.close();
    assertThatThrownBy(tx::apply).hasMessageContaining("other");
    assertThat(tx.state()).isEqualTo(Transaction.State.OPEN);
    assertThat(items.rows()).containsExactly(Row.of(1, 1));
  }
}
