package dev.rivulet.query;

import java.util.function.BooleanSupplier;

/**
 * When the warm-up starts no further step ({@link #getAsBoolean}): once its wall-clock budget is
 * spent, {@code wallMs} after it was made, or, when it yields, once a user's query has started
 * ({@link Warmup#userQueryStarted}). The stop test is this object rather than a lambda, whose
 * linkage would cost the warm-up's thread a fresh JVM's lambda bootstrap. Wall time bounds the
 * thread's CPU time from above, and reading it costs nothing to set up; a thread CPU clock would
 * need {@code java.lang.management}, whose first use loads and initialises enough classes (tens of
 * milliseconds in a fresh JVM) to cost the application's start-up more than the warm-up saves it.
 *
 * <p>Confined to the thread that made it.
 */
final class Budget implements BooleanSupplier {
  private final long start = System.nanoTime();
  private final long nanos;
  private final boolean yielding;

  /** A budget of {@code wallMs} that does not yield to users' queries. */
  Budget(long wallMs) {
    this(wallMs, false);
  }

  Budget(long wallMs, boolean yielding) {
    this.nanos = wallMs * 1_000_000L;
    this.yielding = yielding;
  }

  /** Whether to start no further step: the budget is spent, or (when yielding) a user's query has started. */
  @Override
  public boolean getAsBoolean() {
    return (yielding && Warmup.userQueryStarted()) || spent();
  }

  /** Whether the budget is used up. */
  boolean spent() {
    return System.nanoTime() - start >= nanos;
  }
}
