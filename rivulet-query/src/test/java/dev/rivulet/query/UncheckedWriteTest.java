package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code SyncBatch.writeUnchecked}, the warm-up's way in: its rows land as written rows do, but
 * they are neither checked nor pooled.
 */
class UncheckedWriteTest {
  private static final Schema ITEMS = Schema.parse("id INT NOT NULL, title STRING");

  @Test
  void uncheckedRowsLandAsWrittenRowsButKeepTheirValueInstances() {
    Rivulet db = Rivulet.createPrivate();
    SourceCollection checked = db.collection("checked", ITEMS, List.of("id"));
    SourceCollection unchecked = db.collection("unchecked", ITEMS, List.of("id"));
    LiveQuery q = db.liveQuery("q", Query.from("u", unchecked));
    checked.beginSync().write(Row.of(1, new String("same title"))).write(Row.of(2, new String("same title")))
        .markReady().commit();
    unchecked.beginSync().writeUnchecked(Row.of(1, new String("same title")), Row.of(2, new String("same title")))
        .write(Row.of(3, "third")).markReady().commit();

    assertThat(unchecked.status()).isEqualTo(Status.READY);
    assertThat(q.rows()).extracting(r -> r.get(0)).containsExactlyInAnyOrder(1L, 2L, 3L);
    // the pool gives a written batch's second title the first one's instance; unchecked rows keep theirs
    assertThat(title(checked, 2)).isSameAs(title(checked, 1));
    assertThat(title(unchecked, 2)).isEqualTo(title(unchecked, 1)).isNotSameAs(title(unchecked, 1));
  }

  private static Object title(SourceCollection c, int id) {
    return c.get(Row.of(id)).orElseThrow().get(1);
  }
}
