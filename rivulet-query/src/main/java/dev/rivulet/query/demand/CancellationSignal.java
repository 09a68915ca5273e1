package dev.rivulet.query.demand;

import dev.rivulet.query.Cancellation;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link Cancellation} of one demand request: fired once by {@link #cancel}. Thread-safe (its
 * own monitor guards the flag and the waiting actions; actions run outside it).
 */
public final class CancellationSignal implements Cancellation {
  private boolean cancelled;
  private List<Runnable> actions = new ArrayList<>(1);

  @Override
  public synchronized boolean isCancelled() {
    return cancelled;
  }

  @Override
  public void onCancel(Runnable action) {
    synchronized (this) {
      if (!cancelled) {
        actions.add(action);
        return;
      }
    }
    runQuietly(action);
  }

  /** Cancels, running the waiting actions on this thread; a second call does nothing. */
  public void cancel() {
    List<Runnable> run;
    synchronized (this) {
      if (cancelled) {
        return;
      }
      cancelled = true;
      run = actions;
      actions = null;
    }
    for (Runnable a : run) {
      runQuietly(a);
    }
  }

  /** A source's action that throws is logged: it must not break the caller's bookkeeping. */
  private static void runQuietly(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      System.getLogger(CancellationSignal.class.getName()).log(System.Logger.Level.WARNING,
          "a cancellation action failed", e);
    }
  }
}
