package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SchemaException;
import dev.rivulet.engine.Values;
import dev.rivulet.query.demand.LoadedRows;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A collection whose rows a {@link LazySource} loads on demand: live queries that read it demand
 * subsets (see {@link SubsetRequest}), and it holds a row exactly while at least one settled
 * request that loaded it is held by some demand (ownership); releasing the last such request
 * removes the row. A read that orders and limits (an include's child, or a query over it) asks
 * for each value's first rows only; it then holds, per value, a prefix of the value's rows in
 * that order (never a row the source holds past the last one loaded), and a prefix left shorter
 * than the limit by the source's changes is refilled by a keyset request after its last row. Loaded and removed rows enter as ordinary transactions of the database, so
 * live queries over it see them as changes. Rows loaded so far are readable while other demand
 * is pending.
 *
 * <p>Status: {@link Status#IDLE} until a query demands of it, then {@link Status#LOADING} while
 * any current demand is not covered by a settled request and {@link Status#READY} when all is
 * (also when nothing is demanded). A request that fails puts it in {@link Status#ERROR} (its error
 * names the request), and its live queries with it, until {@link #retry}: while it is in error it
 * installs no loaded rows and applies none of its source's changes; its last rows stay readable.
 *
 * <p>It takes no writes of its own. Guarded by the owning {@link Rivulet}'s monitor.
 */
public final class LazyCollection extends BaseCollection {
  private final LazySource source;
  private final LoadedRows loaded = new LoadedRows();

  LazyCollection(Rivulet db, String name, Schema schema, List<String> keyColumns, LazySource source) {
    super(db, name, schema, keyColumns, null);
    this.source = source;
    source.onChange(this::sourceChanged);
  }

  @Override
  boolean onDemand() {
    return true;
  }

  /**
   * Changes the source made after loading: applied as one transaction of the database, each
   * change where a held request covers its row (a removal where the row is here); the others
   * concern rows nobody demands and are ignored. With a source that completes requests on other
   * threads, a change can race a pending request of its row, whose older baseline may then land
   * after it: such a source should complete requests in order with its changes.
   */
  void sourceChanged(List<SourceChange> changes) {
    synchronized (db) {
      db.demand().changed(this, changes);
    }
    db.runDemand();
  }

  /** The source removed {@code row}: it goes if it is here. */
  void sourceRemoved(Row row) {
    Row key = keyOf(row.canonical());
    loaded.forget(key);
    if (rows.get(key) != null) {
      install(key, null);
    }
  }

  /** The source added (or changed to) {@code row}, which the requests of {@code generations} cover. */
  void sourceAdded(List<Long> generations, Row row) {
    try {
      schema.check(row);
    } catch (SchemaException e) {
      throw new QueryException("lazy collection '" + name() + "': the source changed to " + e.getMessage());
    }
    Row c = row.canonical();
    Row key = keyOf(c);
    for (long generation : generations) {
      loaded.adopt(generation, key);
    }
    install(null, c);
  }

  /**
   * Leaves {@link Status#ERROR} after a failed load: every current demand on this collection is
   * requested from its source again, as new requests, and it is {@link Status#LOADING} until they
   * settle ({@link Status#READY} at once when nothing is demanded). The rows it holds stay until
   * then, each replaced by its newly loaded state, and those no new request loaded (rows its source
   * removed, or no longer demanded) go after: its live queries, failed with it, recover and see
   * only what changed. A new request that fails puts it in error again. Does nothing when it is
   * not in error.
   *
   * @return whether it was in error
   * @throws IllegalStateException when called from a callback of a transaction still publishing
   */
  public boolean retry() {
    boolean retried;
    synchronized (db) {
      db.checkNotPublishing("retry lazy collection '" + name() + "'");
      retried = db.demand().retry(this);
    }
    if (retried) {
      db.runDemand();
    }
    return retried;
  }

  /** The source it loads from. */
  public LazySource source() {
    return source;
  }


  /**
   * Checks the rows a request loaded: each fits the schema and the request's predicate; returns
   * them canonical, one per key (the last wins).
   *
   * @throws QueryException naming this collection, the row and what is wrong
   */
  Map<Row, Row> check(SubsetRequest request, List<Row> loadedRows) {
    if (loadedRows == null) {
      throw new QueryException("lazy collection '" + name() + "': the source completed with no list of rows");
    }
    int[] columns = schema.indexesOf(request.columns());
    Set<Row> values = new HashSet<>(request.values());
    Map<Row, Row> out = new LinkedHashMap<>();
    for (Row r : loadedRows) {
      if (r == null) {
        throw new QueryException("lazy collection '" + name() + "': the source loaded a null row");
      }
      try {
        schema.check(r);
      } catch (SchemaException e) {
        throw new QueryException("lazy collection '" + name() + "': " + e.getMessage());
      }
      Row c = r.canonical();
      if (!values.contains(c.project(columns))) {
        throw new QueryException("lazy collection '" + name() + "': the source loaded " + r + " whose "
            + request.columns() + " " + render(c.project(columns)) + " the request did not ask for");
      }
      out.put(keyOf(c), c);
    }
    return out;
  }

  private static String render(Row value) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < value.width(); i++) {
      parts.add(Values.render(value.get(i)));
    }
    return parts.toString();
  }

  /** Installs the rows request {@code generation} loaded (checked), owned by it. */
  void load(long generation, Map<Row, Row> byKey) {
    loaded.own(generation, new ArrayList<>(byKey.keySet()));
    byKey.forEach(this::install);
  }

  /** Releases request {@code generation}: removes the rows no other held request loaded. */
  void release(long generation) {
    loaded.release(generation, key -> install(key, null));
  }

  /** How many held requests loaded the row of {@code key} (0: it is not here). */
  int owners(Row key) {
    return loaded.owners(key.canonical());
  }

  /** How many keys its held requests track (never more than the rows loaded; for tests). */
  int trackedKeys() {
    return loaded.trackedKeys();
  }
}
