package dev.rivulet.query;

import static dev.rivulet.query.Exprs.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SmokeFacesTest {
  @Test
  void windowStepsFoldToRows() {
    Rivulet db = Rivulet.create();
    SourceCollection c = db.collection("t", Schema.parse("id INT NOT NULL, p INT, s STRING"), List.of("id"));
    c.beginSync().markReady().commit();
    LiveQuery q = db.liveQuery("w", Query.from("t", c).where(gt(col("t.p"), lit(2))).orderBy(Query.desc(col("t.p"))).limit(7));
    List<Row> folded = new ArrayList<>();
    List<Long> txs = new ArrayList<>();
    q.subscribeWindow(SubscribeOptions.sync(), b -> {
      txs.add(b.txId());
      for (WindowDelta d : b.deltas()) {
        switch (d.op()) {
          case RESET -> folded.clear();
          case ENTER -> folded.add(d.newIndex(), d.row());
          case LEAVE -> { assertThat(folded.get(d.oldIndex())).isEqualTo(d.row()); folded.remove(d.oldIndex()); }
          case MOVE -> { assertThat(folded.get(d.oldIndex())).isEqualTo(d.old()); folded.remove(d.oldIndex()); folded.add(d.newIndex(), d.row()); }
          case UPDATE -> { assertThat(folded.get(d.oldIndex())).isEqualTo(d.old()); folded.set(d.oldIndex(), d.row()); }
        }
      }
    });
    Random r = new Random(1);
    for (int t = 0; t < 300; t++) {
      SourceCollection.SyncBatch b = c.beginSync();
      int n = 1 + r.nextInt(6);
      for (int i = 0; i < n; i++) {
        int id = r.nextInt(20);
        if (r.nextInt(4) == 0) b.delete(Row.of(id)); else b.write(Row.of(id, r.nextInt(8), "x" + r.nextInt(3)));
      }
      b.commit();
      assertThat(folded).as("after tx " + t).isEqualTo(q.rows());
    }
    assertThat(txs).isSorted();
  }
}
