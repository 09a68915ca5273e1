package dev.rivulet.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A replayable regression trace: a {@link History} and the name of the scenario (the {@link
 * OracleRunner}) it is replayed against. This is the file a failing property prints and that is
 * committed under {@code src/test/resources/traces}.
 *
 * <p>Text form: {@code #} comment lines, one {@code scenario <name>} line, then the history in
 * the format of {@link History#parse}:
 *
 * <pre>
 * # seed 42, oracle check, shrunk
 * scenario join-left
 * step 0
 *   left +1 [1, 'a']
 * </pre>
 *
 * @param scenario the runner's name
 * @param history the steps to replay
 */
public record Trace(String scenario, History history) {
  public Trace {
    if (!HistoryText.isName(scenario)) {
      throw new IllegalArgumentException("scenario name '" + scenario + "' must be letters, digits, '_', '-' or '.' (and not 'step')");
    }
  }

  public String toText() {
    return "scenario " + scenario + "\n" + history.toText();
  }

  /** The text with a leading comment (each line prefixed by {@code # }). */
  public String toText(String comment) {
    StringBuilder sb = new StringBuilder();
    for (String line : comment.split("\n")) {
      sb.append("# ").append(line).append('\n');
    }
    return sb.append(toText()).toString();
  }

  /**
   * Reads the text of {@link #toText}.
   *
   * @throws IllegalArgumentException when the scenario line is missing or the history is malformed
   */
  public static Trace parse(String text) {
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] words = line.split("\\s+");
      if (words.length != 2 || !words[0].equals("scenario")) {
        throw new IllegalArgumentException("trace, line " + (i + 1) + ": expected 'scenario <name>' before the steps, got '"
            + line + "'");
      }
      StringBuilder rest = new StringBuilder();
      for (int j = 0; j < lines.length; j++) {
        // Blank out the lines already read, so history errors keep the file's line numbers.
        rest.append(j <= i ? "" : lines[j]).append('\n');
      }
      return new Trace(words[1], History.parse(rest.toString()));
    }
    throw new IllegalArgumentException("trace: no 'scenario <name>' line");
  }

  /** Reads a trace file (UTF-8). */
  public static Trace load(Path file) {
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read trace " + file, e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }
}
