package dev.rivulet.query;

/**
 * A wall-clock budget for work done on one thread (the warm-up's): spent once {@code wallMs} have
 * passed since it was made. Wall time bounds the thread's CPU time from above, and reading it
 * costs nothing to set up; a thread CPU clock would need {@code java.lang.management}, whose first
 * use loads and initialises enough classes (tens of milliseconds in a fresh JVM) to cost the
 * application's start-up more than the warm-up saves it.
 *
 * <p>Confined to the thread that made it.
 */
final class Budget {
  private final long start = System.nanoTime();
  private final long nanos;

  Budget(long wallMs) {
    this.nanos = wallMs * 1_000_000L;
  }

  /** Whether the budget is used up. */
  boolean spent() {
    return System.nanoTime() - start >= nanos;
  }
}
