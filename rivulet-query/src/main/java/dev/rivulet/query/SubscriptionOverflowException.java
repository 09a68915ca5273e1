package dev.rivulet.query;

/**
 * Reported to the database's error handler when a subscriber falls more than its capacity behind:
 * the subscription either ended or will receive a reset once it catches up.
 */
public final class SubscriptionOverflowException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SubscriptionOverflowException(int capacity, boolean resets) {
    super("a subscriber fell more than " + capacity + " deliveries behind; "
        + (resets ? "it gets a reset of the window when it catches up" : "its subscription ended (OVERFLOW)"));
  }
}
