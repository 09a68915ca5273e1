package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import dev.rivulet.query.ChangeEvent;
import dev.rivulet.query.KeyedBatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A keyed-event subscriber's view of a result (subscribed with its initial state): rows by key,
 * each insert of a new key, update and delete of a held one applied; anything else is recorded as
 * an error. Used on the writer's thread only.
 */
final class FoldedEvents implements Consumer<KeyedBatch> {
  private final Map<Row, Row> rows = new LinkedHashMap<>();
  private final List<String> errors = new ArrayList<>();

  @Override
  public void accept(KeyedBatch b) {
    for (ChangeEvent e : b.events()) {
      boolean held = rows.containsKey(e.key());
      switch (e.type()) {
        case INSERT -> {
          if (held) {
            errors.add("tx " + b.txId() + ": insert of held key " + e.key());
          }
          rows.put(e.key(), e.value());
        }
        case UPDATE -> {
          if (!held) {
            errors.add("tx " + b.txId() + ": update of missing key " + e.key());
          }
          rows.put(e.key(), e.value());
        }
        case DELETE -> {
          if (rows.remove(e.key()) == null) {
            errors.add("tx " + b.txId() + ": delete of missing key " + e.key());
          }
        }
      }
    }
  }

  /** The folded rows as plain values, sorted. */
  List<Object> plainRows() {
    return PlainValues.sorted(PlainValues.rows(new ArrayList<>(rows.values())));
  }

  List<String> errors() {
    return errors;
  }
}
