package dev.rivulet.replica.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;
import org.jline.utils.Display;
import org.jline.utils.InfoCmp.Capability;

/**
 * Draws frames in place on the terminal with JLine (alternate screen, only changed cells redrawn),
 * five times per second. Ctrl-C asks the demo to stop; the screen is restored on close. The
 * stop flag is set from JLine's signal thread and read by the demo's thread (volatile).
 */
final class TerminalView implements View {
  private final Terminal terminal;
  private final Display display;
  private volatile boolean stop;

  private TerminalView(Terminal terminal) {
    this.terminal = terminal;
    this.display = new Display(terminal, true);
    terminal.handle(Terminal.Signal.INT, s -> stop = true);
    terminal.puts(Capability.enter_ca_mode);
    terminal.puts(Capability.cursor_invisible);
    terminal.puts(Capability.clear_screen);
    terminal.flush();
  }

  /** The system terminal, or null when stdout is not one (or JLine only finds a dumb terminal). */
  static TerminalView open() {
    if (System.console() == null) {
      return null;
    }
    try {
      Terminal t = TerminalBuilder.builder().system(true).dumb(true).build();
      if (Terminal.TYPE_DUMB.equals(t.getType()) || Terminal.TYPE_DUMB_COLOR.equals(t.getType())) {
        t.close();
        return null;
      }
      return new TerminalView(t);
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  public long periodMillis() {
    return 200;
  }

  @Override
  public void show(Frame frame) {
    Size size = terminal.getSize();
    int rows = Math.max(1, size.getRows());
    int cols = Math.max(1, size.getColumns());
    display.resize(rows, cols);
    List<String> text = frame.lines();
    List<AttributedString> lines = new ArrayList<>();
    for (int i = 0; i < Math.min(rows, text.size()); i++) {
      // on a short screen the last two lines keep the footer
      int fromEnd = rows - i;
      int line = text.size() > rows && fromEnd <= 2 ? text.size() - fromEnd : i;
      lines.add(styled(text.get(line), line, text.size()).columnSubSequence(0, cols));
    }
    display.update(lines, -1);
    terminal.flush();
  }

  private static AttributedString styled(String line, int index, int count) {
    boolean heading = index == 0 || line.startsWith("Top ") || line.startsWith("Open issues");
    boolean footer = index >= count - 2;
    if (!heading && !footer) {
      return new AttributedString(line);
    }
    AttributedStyle style = footer ? AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN) : AttributedStyle.BOLD;
    return new AttributedStringBuilder().style(style).append(line).toAttributedString();
  }

  @Override
  public void last(Frame frame) {
    show(frame);
  }

  @Override
  public boolean stopRequested() {
    return stop;
  }

  @Override
  public void close() {
    try {
      terminal.puts(Capability.cursor_visible);
      terminal.puts(Capability.exit_ca_mode);
      terminal.flush();
      terminal.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
