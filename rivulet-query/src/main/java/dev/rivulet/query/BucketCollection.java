package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.compile.FacadeEdge;
import dev.rivulet.query.compile.RowShape;
import dev.rivulet.query.face.NestedValues;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The public collection of one active bucket of a collection include (seed 000, "Collection
 * facade"): the child rows correlated with the bucket, in the child's order, shared by every
 * parent routed to the bucket. Read-only: its rows are installed by the owning live query's
 * {@link IncludeFacades} from the graph's output, within the transaction that changed them, and
 * its events are delivered with that transaction. It is never retargeted to another bucket; once
 * no parent routes to its bucket it is emptied and dropped (a holder keeps an empty collection).
 * It cannot be the source of a live query (query the child's source instead).
 *
 * <p>Guarded by the owning {@link Rivulet}'s monitor.
 */
final class BucketCollection extends BaseCollection {
  private final FacadeEdge edge;
  private final NestedValues.Facades facades;

  BucketCollection(Rivulet db, String name, Schema rows, FacadeEdge edge, NestedValues.Facades facades) {
    super(db, name, rows, keyNames(rows, edge.keys()), edge.keys());
    this.edge = edge;
    this.facades = facades;
    setStatus(Status.READY);
  }

  private static List<String> keyNames(Schema rows, int[] keys) {
    List<String> out = new ArrayList<>();
    for (int k : keys) {
      out.add(rows.column(k).name());
    }
    return out;
  }

  @Override
  boolean nested() {
    return true;
  }

  @Override
  Row publicRow(Row stored) {
    return NestedValues.element(stored, edge.nest().child(), facades);
  }

  @Override
  Row sourceRow(Row stored) {
    throw new QueryException("nested collection '" + name() + "' cannot be read by a query; query its source");
  }

  @Override
  boolean storedIsSource() {
    return false; // sourceRow refuses
  }

  /** The rows in the child query's order. */
  @Override
  Row[] storedRows() {
    Row[] out = super.storedRows();
    Arrays.sort(out, edge.order());
    return out;
  }

  @Override
  public List<Row> rows() {
    synchronized (db) {
      Row[] stored = storedRows();
      List<Row> out = new ArrayList<>(stored.length);
      for (Row r : stored) {
        out.add(publicRow(r));
      }
      return Collections.unmodifiableList(out);
    }
  }

  /** The shape of its rows. */
  RowShape shape() {
    return edge.nest().child();
  }
}
