package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A commit refused because it was made from a listener (which runs inside the transaction it
 * observes) applies nothing, so it leaves the batch or transaction as it was: committed later,
 * outside the listener, it applies once. (An optimistic {@link Transaction}'s apply behaves so
 * already: it stays OPEN.)
 */
class CommitRefusedInAListenerTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection a = db.collection("a", Schema.parse("id INT NOT NULL, v INT"), List.of("id"));
  private final SourceCollection b = db.collection("b", Schema.parse("id INT NOT NULL, v INT"), List.of("id"));

  /** Runs {@code commit} from a's listener on the next write to a; what it threw. */
  private Throwable refusedInAListener(Runnable commit) {
    List<Throwable> thrown = new ArrayList<>();
    LiveCollection.Subscription s = a.subscribe(events -> {
      try {
        commit.run();
      } catch (RuntimeException e) {
        thrown.add(e);
      }
    });
    a.syncWrite(Row.of(1, 1));
    s.close();
    assertThat(thrown).hasSize(1);
    return thrown.get(0);
  }

  @Test
  void aSyncBatchRefusedInAListenerCommitsLater() {
    SourceCollection.SyncBatch batch = b.beginSync().write(Row.of(7, 7)).write(Row.of(8, 8));
    assertThat(refusedInAListener(batch::commit)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("listener");
    assertThat(b.rows()).as("nothing applied").isEmpty();
    batch.commit();
    assertThat(b.rows()).containsExactlyInAnyOrder(Row.of(7, 7), Row.of(8, 8));
    assertThatThrownBy(batch::commit).isInstanceOf(IllegalStateException.class).hasMessageContaining("already committed");
  }

  @Test
  void aSyncTransactionRefusedInAListenerCommitsLater() {
    SyncTransaction t = db.beginSync().write(b, Row.of(7, 7)).write(a, Row.of(9, 9));
    assertThat(refusedInAListener(t::commit)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("listener");
    assertThat(b.rows()).as("nothing applied").isEmpty();
    t.commit();
    assertThat(b.rows()).containsExactly(Row.of(7, 7));
    assertThat(a.rows()).containsExactlyInAnyOrder(Row.of(1, 1), Row.of(9, 9));
    assertThatThrownBy(t::commit).isInstanceOf(IllegalStateException.class).hasMessageContaining("already committed");
  }

  @Test
  void anOptimisticApplyRefusedInAListenerStaysOpen() {
    Transaction t = db.transaction().insert(b, Row.of(7, 7));
    assertThat(refusedInAListener(t::apply)).isInstanceOf(IllegalStateException.class);
    assertThat(t.state()).isEqualTo(Transaction.State.OPEN);
    t.apply();
    assertThat(b.rows()).containsExactly(Row.of(7, 7));
  }
}
