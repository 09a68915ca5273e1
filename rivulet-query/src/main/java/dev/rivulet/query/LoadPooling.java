package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.query.state.ValuePool;
import java.util.ArrayList;
import java.util.Arrays;

/**
 * The rows of a source collection's large loads whose repeated values its {@link ValuePool} has
 * yet to share, and the background pass that shares them.
 *
 * <p>A load's commit of more than {@value SourceCollection#CHUNK} rows, into a collection no live
 * query reads yet, hands its rows here instead of pooling them before it returns ({@link #add}).
 * None of them is pooled while the load writes: in a fresh JVM the pool's first rows run its code
 * interpreted, 3-5 ms of the loading thread's time that its first query waited for.
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
 * that its rows hold the shared instances too, while a column replaces values ({@link
 * ValuePool#replacing}): it pools the pending loads itself, or waits for the pass to finish them
 * ({@link #drain}), before it reads them. The first such query learns that from the first
 * {@value #SAMPLE} rows ({@link #learn}); a load whose columns do not repeat, or repeat as shared
 * instances already (unique titles, ids, small integers), leaves it nothing more to do.
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
  /** How many rows of the first pending chunk a query pools to learn whether columns repeat. */
  static final int SAMPLE = 512;
  private boolean learnt; // some pending rows were pooled here; guarded by the pooling lock
  private Object[][] block; // the pool's scratch space; used under the pooling lock
  private boolean passStarted; // a pass thread is waiting or running; guarded by this
  private long cuesBefore; // the database's pooling cues when the pass was started; set before it starts

  LoadPooling(ValuePool pool, Rivulet db) {
    this.pool = pool;
    this.db = db;
  }

  /**
   * Adds a committed load: rows {@code [0, n)} of {@code load}, chunks of {@link
   * SourceCollection#CHUNK} (null entries, deletes and the last chunk's unused end, are skipped);
   * starts the pass unless one is pending.
   */
  void add(Row[][] load, int n) {
    synchronized (this) {
      for (int c = 0; c * SourceCollection.CHUNK < n; c++) {
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
        share(chunk, chunk.length);
      }
    }
  }

  /**
   * Pools the first {@value #SAMPLE} rows of the oldest pending chunk now, unless pending rows were
   * pooled here before: what {@link ValuePool#replacing} predicts is learnt from them.
   */
  void learn() {
    synchronized (pooling) {
      Row[] chunk;
      synchronized (this) {
        if (learnt || chunks.isEmpty()) {
          return;
        }
        chunk = chunks.get(0);
        if (chunk.length > SAMPLE) {
          chunks.set(0, Arrays.copyOfRange(chunk, SAMPLE, chunk.length)); // the rest, for the pass
        } else {
          chunks.remove(0);
        }
      }
      share(chunk, Math.min(SAMPLE, chunk.length));
    }
  }

  /** Pools {@code chunk[0..n)}; under the pooling lock. */
  private void share(Row[] chunk, int n) {
    if (block == null) {
      block = new Object[ValuePool.BLOCK][];
    }
    pool.share(chunk, 0, n, block);
    learnt = true;
  }

  /** Whether some load awaits its pooling. */
  synchronized boolean pending() {
    return !chunks.isEmpty();
  }
}
