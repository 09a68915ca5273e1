package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import dev.rivulet.query.Change;
import dev.rivulet.query.ChangeBatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A change-batch subscriber's view of a result: the rows of its {@code Hydrated} batch with every
 * later batch's changes folded in (a removal or edit of a row it does not hold is recorded as an
 * error). Also checks that transaction ids increase. Used on the writer's thread only.
 */
final class FoldedChanges implements Consumer<ChangeBatch> {
  private final Map<Row, Integer> rows = new HashMap<>();
  private final List<String> errors = new ArrayList<>();
  private long lastTx = -1;

  @Override
  public void accept(ChangeBatch b) {
    if (b.txId() <= lastTx) {
      errors.add("batch of tx " + b.txId() + " after tx " + lastTx);
    }
    lastTx = b.txId();
    for (Change c : b.changes()) {
      if (c instanceof Change.Remove r) {
        remove(r.row());
      } else if (c instanceof Change.Edit e) {
        remove(e.old());
        rows.merge(e.row(), 1, Integer::sum);
      } else {
        rows.merge(c.row(), 1, Integer::sum);
      }
    }
  }

  private void remove(Row row) {
    Integer n = rows.get(row);
    if (n == null) {
      errors.add("removed " + row + " which the subscriber does not hold");
    } else if (n == 1) {
      rows.remove(row);
    } else {
      rows.put(row, n - 1);
    }
  }

  /** The folded rows as plain values, sorted. */
  List<Object> plainRows() {
    List<Row> all = new ArrayList<>();
    rows.forEach((r, n) -> {
      for (int i = 0; i < n; i++) {
        all.add(r);
      }
    });
    return PlainValues.sorted(PlainValues.rows(all));
  }

  List<String> errors() {
    return errors;
  }
}
