package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.query.state.ValuePool;
import java.util.ArrayList;

/**
 * The rows of a source collection's large loads whose repeated values its {@link ValuePool} has
 * yet to share, and the background pass that shares them.
 *
 * <p>A load's commit of more than {@value SourceCollection#CHUNK} rows, into a collection no live
 * query reads yet, hands its rows here, all but its first chunk (pooled as it filled, which tells
 * which columns repeat), instead of pooling them before it returns ({@link #add}).
 * The pass runs on a thread of its own once the database gives it a cue ({@link
 * Rivulet#awaitPoolingCue}), or after {@value #WAIT_MS} ms without one. The cue is the end of the
 * next live query's creation: an application's first query, made right after its load, does not
 * share a fresh JVM's two busy cores with the pass, and is ready that much sooner. The work is the
 * same; it only moves after that query. Until the pass, the rows hold equal values in instances of
 * their own: memory, not meaning.
 *
 * <p>Pooling replaces a value only by an equal instance, so readers of the rows (a live query's
 * hydration, a read of the collection) never wait for it. A query whose rows are not the
 * collection's own (a join's, a projection's: its rows copy the values out) reads them pooled, so
 * that its rows hold the shared instances too, while the first chunk showed a column replacing
 * values ({@link ValuePool#replacing}): it pools the pending loads itself, or waits for the pass to
 * finish them ({@link #drain}), before it reads them. A load whose columns all stopped or paused
 * (unique titles, ids, small integers) leaves such a query nothing to wait for.
 *
 * <p>Thread safety: the pending chunks are guarded by this object's monitor, taken only to add or
 * take one; the pooling of a taken chunk is serialised by a second lock, {@code pooling}, so a
 * drainer returns after every load added before it has been pooled (by it or by the pass). The
 * pool itself is safe to use from several threads (see {@link ValuePool}).
 */
final class LoadPooling implements Runnable {
  /** How long the pass waits for the database's next live query, in milliseconds. */
  static final long WAIT_MS = 100;
  private final ValuePool pool;
  private final Rivulet db;
  private final Object pooling = new Object();
  private final ArrayList<Row[]> chunks = new ArrayList<>(); // the pending loads' chunks to pool
  private Object[][] block; // the pool's scratch space; used under the pooling lock
  private boolean passStarted; // a pass thread is waiting or running; guarded by this
  private long cuesBefore; // the database's pooling cues when the pass was started; set before it starts

  LoadPooling(ValuePool pool, Rivulet db) {
    this.pool = pool;
    this.db = db;
  }

  /**
   * Adds a committed load: rows {@code [from, n)} of {@code load}, chunks of {@link
   * SourceCollection#CHUNK} ({@code from} a multiple of it; null entries, deletes and the last
   * chunk's unused end, are skipped); starts the pass unless one is pending.
   */
  void add(Row[][] load, int from, int n) {
    synchronized (this) {
      for (int c = from / SourceCollection.CHUNK; c * SourceCollection.CHUNK < n; c++) {
        chunks.add(load[c]);
      }
      if (passStarted) {
        return;
      }
      passStarted = true;
      cuesBefore = db.poolingCues();
    }
    Thread t = new Thread(this, "rivulet-load-pooling");
    t.setDaemon(true);
    t.start();
  }

  /** The pass: waits for the next live query (or {@link #WAIT_MS}), then pools every pending load. */
  @Override
  public void run() {
    try {
      db.awaitPoolingCue(cuesBefore, WAIT_MS);
      drain();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // pooled below, without waiting
    } finally {
      synchronized (this) {
        passStarted = false;
      }
      if (pending()) {
        drain(); // added after the pass had drained, before it ended: not left to a query
      }
    }
  }

  /** Pools every load added so far, here, unless the pass is at it (then waits for it). */
  void drain() {
    synchronized (pooling) {
      while (true) {
        Row[] chunk;
        synchronized (this) {
          if (chunks.isEmpty()) {
            return;
          }
          chunk = chunks.remove(chunks.size() - 1);
        }
        if (block == null) {
          block = new Object[ValuePool.BLOCK][];
        }
        pool.share(chunk, 0, chunk.length, block);
      }
    }
  }

  /** Whether some load awaits its pooling. */
  synchronized boolean pending() {
    return !chunks.isEmpty();
  }
}
