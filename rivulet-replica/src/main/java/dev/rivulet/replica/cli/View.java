package dev.rivulet.replica.cli;

/** Where the demo shows its frames. Used by the demo's one thread. */
interface View extends AutoCloseable {
  /** How often the demo hands this view a frame, in milliseconds. */
  long periodMillis();

  void show(Frame frame);

  /** Shows the last frame as the demo ends. */
  void last(Frame frame);

  /** True once the user asked to stop (Ctrl-C on the terminal). */
  boolean stopRequested();

  @Override
  void close();
}
