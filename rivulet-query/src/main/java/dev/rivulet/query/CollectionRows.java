package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.RowSource;
import java.util.function.Consumer;

/**
 * A collection's current rows in their source form, for an include's indexed semi-join that
 * reads them when its graph first runs (instead of the collection's input being hydrated). Read
 * under the database's monitor, as the hydration it replaces.
 */
record CollectionRows(BaseCollection collection) implements RowSource {
  @Override
  public int size() {
    return collection.size();
  }

  @Override
  public void forEachRow(Consumer<Row> sink) {
    collection.forEachSourceRow(sink);
  }
}
