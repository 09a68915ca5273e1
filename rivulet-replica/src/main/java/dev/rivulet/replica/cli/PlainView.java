package dev.rivulet.replica.cli;

import java.io.PrintWriter;

/** Plain output for a non-terminal stdout: one summary line per second, the whole frame at the end. */
final class PlainView implements View {
  private final PrintWriter out;

  PlainView(PrintWriter out) {
    this.out = out;
  }

  @Override
  public long periodMillis() {
    return 1_000;
  }

  @Override
  public void show(Frame frame) {
    out.println(frame.summary());
    out.flush();
  }

  @Override
  public void last(Frame frame) {
    frame.lines().forEach(out::println);
    out.flush();
  }

  @Override
  public boolean stopRequested() {
    return false;
  }

  @Override
  public void close() {
    out.flush();
  }
}
