package dev.rivulet.query;

/** Lifecycle of a collection. */
public enum Status {
  /** Created, nothing loaded yet. */
  IDLE,
  /** Receiving its first data. */
  LOADING,
  /** Holds a complete result; the ready signal has fired. */
  READY,
  /**
   * Failed; {@link LiveCollection#error()} says why. Its last published rows stay readable and
   * nothing is delivered. A live query failed on a duplicate key or by a failed source recovers
   * when the cause goes (see {@link LiveQuery}); any other failure is final.
   */
  ERROR,
  /** Closed by its owner. */
  CLOSED
}
