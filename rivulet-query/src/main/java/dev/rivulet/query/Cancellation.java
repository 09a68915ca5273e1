package dev.rivulet.query;

/**
 * The cancellation signal of one {@link LazySource} request: it fires once, when the last owner
 * of the request lets it go. Before the request settles that means abort (a conforming source
 * then never completes it with rows); after it settles it means release (the source may drop
 * what it keeps for the request). Cancellation is cooperative: the database also ignores a
 * cancelled request that settles anyway.
 *
 * <p>Thread-safe: it may be read and listened to from any thread.
 */
public interface Cancellation {
  /** Whether the request was cancelled. */
  boolean isCancelled();

  /**
   * Runs {@code action} once when the request is cancelled (at once, on this thread, if it already
   * was). Actions run on the thread that cancels, which may hold the database's lock: they must
   * be short and must not block.
   */
  void onCancel(Runnable action);
}
