package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An error handler that throws (it must not, but a test's {@code fail(..)} or an {@code assert}
 * in one throws an {@link AssertionError}) is itself only a failure to log: the subscriber whose
 * failure it was handling keeps getting deliveries, every other collection's subscribers still see
 * the transaction, and the writer's commit returns normally.
 */
class ThrowingErrorHandlerTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection a = db.collection("a", Schema.parse("id INT NOT NULL, v INT"), List.of("id"));
  private final SourceCollection b = db.collection("b", Schema.parse("id INT NOT NULL, v INT"), List.of("id"));

  @Test
  void aHandlerThrowingAnErrorLeavesEveryMailboxAndPublicationWhole() {
    List<Throwable> handled = new ArrayList<>();
    db.onError((c, e) -> {
      handled.add(e);
      throw new AssertionError("the handler fails too");
    });
    List<List<ChangeEvent>> seenA = new ArrayList<>();
    List<List<ChangeEvent>> seenB = new ArrayList<>();
    a.subscribe(events -> {
      seenA.add(events);
      if (seenA.size() == 1) {
        throw new IllegalStateException("the subscriber fails once");
      }
    });
    b.subscribe(seenB::add);

    db.beginSync().write(a, Row.of(1, 1)).write(b, Row.of(1, 1)).commit(); // returns normally
    assertThat(handled).hasSize(1).first().isInstanceOf(IllegalStateException.class);
    assertThat(seenB).as("b's subscriber sees the transaction a's subscriber failed on").hasSize(1);

    db.beginSync().write(a, Row.of(2, 2)).write(b, Row.of(2, 2)).commit();
    assertThat(seenA).as("a's subscriber keeps getting deliveries").hasSize(2);
    assertThat(seenB).hasSize(2);
  }
}
