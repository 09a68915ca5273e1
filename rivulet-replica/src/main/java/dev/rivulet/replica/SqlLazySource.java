package dev.rivulet.replica;

import dev.rivulet.engine.Bytes;
import dev.rivulet.engine.Row;
import dev.rivulet.query.Cancellation;
import dev.rivulet.query.LazySource;
import dev.rivulet.query.SourceChange;
import dev.rivulet.query.SubsetRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A lazy table of a replica: answers {@link SubsetRequest}s with SQL on the replica's connection
 * (see {@link SubsetSql}). The replica's captured changes of the table reach its lazy collection
 * through the replica's sync transaction ({@code SyncTransaction.sourceChanged}), with the rest of
 * each commit.
 *
 * <p>A request is read at a committed and published state of the database: at once, inside {@link
 * #load}, when the calling thread holds the replica's monitor outside a transaction (a live query
 * created through the replica, demand that a commit's publication raised); otherwise on the
 * source's loader thread, which takes the monitor (so it waits for the running transaction).
 *
 * <p>Concurrency: the connection is used only under the replica's monitor; counters are atomic.
 */
final class SqlLazySource implements LazySource {
  private final TableInfo table;
  private final SubsetSql sql;
  private final Connection conn;
  private final Object replicaLock;
  private final BooleanSupplier inTransaction;
  private final AtomicLong statements = new AtomicLong();
  private final AtomicLong rowsRead = new AtomicLong();
  private ExecutorService loader; // created at the first load that cannot run at once; guarded by this

  SqlLazySource(TableInfo table, String qualifiedTable, Connection conn, Object replicaLock,
      BooleanSupplier inTransaction) {
    this.table = table;
    this.sql = new SubsetSql(qualifiedTable, table.columns(), table.keys());
    this.conn = conn;
    this.replicaLock = replicaLock;
    this.inTransaction = inTransaction;
  }

  @Override
  public CompletableFuture<List<Row>> load(SubsetRequest request, Cancellation cancellation) {
    CompletableFuture<List<Row>> result = new CompletableFuture<>();
    Runnable serve = () -> serve(request, cancellation, result);
    if (Thread.holdsLock(replicaLock) && !inTransaction.getAsBoolean()) {
      serve.run();
    } else {
      loader().execute(() -> {
        synchronized (replicaLock) {
          serve.run();
        }
      });
    }
    return result;
  }

  private void serve(SubsetRequest request, Cancellation cancellation, CompletableFuture<List<Row>> result) {
    if (cancellation.isCancelled()) {
      result.completeExceptionally(new CancellationException("request cancelled"));
      return;
    }
    List<Row> rows;
    try {
      rows = read(request);
    } catch (SQLException | RuntimeException e) {
      result.completeExceptionally(new IllegalStateException("lazy table '" + table.name() + "': " + request
          + " failed: " + e.getMessage(), e));
      return;
    }
    if (cancellation.isCancelled()) { // checked immediately before handing the baseline over
      result.completeExceptionally(new CancellationException("request cancelled"));
    } else {
      result.complete(rows);
    }
  }

  /** The rows of {@code request}, read now (under the replica's monitor). */
  List<Row> read(SubsetRequest request) throws SQLException {
    List<Row> out = new ArrayList<>();
    int n = table.columns().size();
    for (SubsetSql.Statement st : sql.statements(request)) {
      statements.incrementAndGet();
      try (PreparedStatement ps = conn.prepareStatement(st.sql())) {
        for (int i = 0; i < st.params().size(); i++) {
          ps.setObject(i + 1, jdbc(st.params().get(i)));
        }
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            Object[] values = new Object[n];
            for (int i = 0; i < n; i++) {
              values[i] = CaptureBuffer.plain(rs.getObject(i + 1));
            }
            out.add(Row.of(values));
            rowsRead.incrementAndGet();
          }
        }
      }
    }
    return Collections.unmodifiableList(out);
  }

  /** A canonical value as JDBC binds it (bytes as an array, a timestamp as one). */
  static Object jdbc(Object canonical) {
    if (canonical instanceof Bytes b) {
      return b.toArray();
    }
    return canonical instanceof Instant t ? java.sql.Timestamp.from(t) : canonical;
  }


  /** Statements run for requests so far. */
  long statements() {
    return statements.get();
  }

  /** Rows read from the database for requests so far. */
  long rowsRead() {
    return rowsRead.get();
  }

  private synchronized ExecutorService loader() {
    if (loader == null) {
      loader = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "rivulet-lazy-" + table.name());
        t.setDaemon(true);
        return t;
      });
    }
    return loader;
  }

  /** Stops the loader thread (requests still queued are dropped). */
  synchronized void close() {
    if (loader != null) {
      loader.shutdownNow();
    }
  }
}
