package dev.rivulet.query;

/** Lifecycle of a collection. */
public enum Status {
  /** Created, nothing loaded yet. */
  IDLE,
  /** Receiving its first data. */
  LOADING,
  /** Holds a complete result; the ready signal has fired. */
  READY,
  /** Failed; {@link LiveCollection#error()} says why. It receives no further changes. */
  ERROR,
  /** Closed by its owner. */
  CLOSED
}
