package dev.rivulet.testkit;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;

/**
 * A history of changes to the named inputs of a graph: a list of steps, each one transaction (one
 * {@code Graph.run}). A step is an ordered batch of changes; an update is a retraction followed by
 * an insertion, a duplicate is a weight above one.
 *
 * <p>A history is <em>valid</em> when no input row's multiplicity ever drops below zero, checked
 * after every single change in order (so every prefix of every step is a valid multiset too, and a
 * step may be split anywhere). Generated and shrunk histories are valid; {@link #repaired} makes
 * any history valid by trimming retractions of rows that are not present.
 *
 * <p>{@link #toText} renders a history as readable, line-based text that {@link #parse} reads back
 * to an equal history; the format is described in {@link #parse}.
 *
 * @param steps the transactions in order
 */
public record History(List<Step> steps) {
  public History {
    steps = List.copyOf(steps);
  }

  /** One transaction: an ordered batch of changes. */
  public record Step(List<Change> changes) {
    public Step {
      changes = List.copyOf(changes);
    }

    public static Step of(Change... changes) {
      return new Step(List.of(changes));
    }

    @Override
    public String toString() {
      return HistoryText.renderStep(this, -1);
    }
  }

  /**
   * One change: {@code weight} copies of {@code row} inserted into (positive) or retracted from
   * (negative) input {@code input}.
   */
  public record Change(String input, Row row, long weight) {
    public Change {
      Objects.requireNonNull(input, "input");
      Objects.requireNonNull(row, "row");
      if (weight == 0) {
        throw new IllegalArgumentException("a change needs a non-zero weight: " + input + " " + row);
      }
      if (!HistoryText.isName(input)) {
        throw new IllegalArgumentException("input name '" + input + "' must be letters, digits, '_', '-' or '.' (and not 'step')");
      }
    }

    public static Change insert(String input, Row row) {
      return new Change(input, row, 1);
    }

    public static Change delete(String input, Row row) {
      return new Change(input, row, -1);
    }

    @Override
    public String toString() {
      return HistoryText.renderChange(this);
    }
  }

  public static History of(Step... steps) {
    return new History(List.of(steps));
  }

  public int size() {
    return steps.size();
  }

  public Step step(int i) {
    return steps.get(i);
  }

  /** Number of change entries over all steps. */
  public int changeCount() {
    int n = 0;
    for (Step s : steps) {
      n += s.changes().size();
    }
    return n;
  }

  /** True when no row's multiplicity drops below zero after any change, in order. */
  public boolean isValid() {
    Map<String, Map<Row, Long>> state = new HashMap<>();
    for (Step s : steps) {
      for (Change c : s.changes()) {
        long m = state.computeIfAbsent(c.input(), k -> new HashMap<>()).merge(c.row(), c.weight(), Long::sum);
        if (m < 0) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * A valid history close to this one: each retraction is trimmed to the copies present at that
   * point (and dropped when none are). Steps are kept, even if they become empty.
   */
  public History repaired() {
    Map<String, Map<Row, Long>> state = new HashMap<>();
    List<Step> out = new ArrayList<>(steps.size());
    for (Step s : steps) {
      List<Change> kept = new ArrayList<>(s.changes().size());
      for (Change c : s.changes()) {
        Map<Row, Long> in = state.computeIfAbsent(c.input(), k -> new HashMap<>());
        long have = in.getOrDefault(c.row(), 0L);
        long w = c.weight() < 0 ? Math.max(c.weight(), -have) : c.weight();
        if (w != 0) {
          in.put(c.row(), have + w);
          kept.add(w == c.weight() ? c : new Change(c.input(), c.row(), w));
        }
      }
      out.add(new Step(kept));
    }
    return new History(out);
  }

  /** The contents of every input after the first {@code stepCount} steps, zero weights dropped. */
  public Map<String, Map<Row, Long>> contentsAfter(int stepCount) {
    Map<String, Map<Row, Long>> state = new TreeMap<>();
    for (Step s : steps.subList(0, stepCount)) {
      for (Change c : s.changes()) {
        Map<Row, Long> in = state.computeIfAbsent(c.input(), k -> new LinkedHashMap<>());
        if (in.merge(c.row(), c.weight(), Long::sum) == 0) {
          in.remove(c.row());
        }
      }
    }
    return state;
  }

  /** The whole history as one step (one atomic transaction), changes in order. */
  public History merged() {
    List<Change> all = new ArrayList<>();
    for (Step s : steps) {
      all.addAll(s.changes());
    }
    return History.of(new Step(all));
  }

  /**
   * Each step cut into {@code 1..maxParts} contiguous, non-empty parts at random points; change
   * order is kept, so a valid history stays valid.
   */
  public History split(Random random, int maxParts) {
    List<Step> out = new ArrayList<>();
    for (Step s : steps) {
      List<Change> cs = s.changes();
      int parts = Math.min(cs.size(), 1 + random.nextInt(Math.max(1, maxParts)));
      if (parts <= 1) {
        out.add(s);
        continue;
      }
      // Choose parts-1 distinct cut points in 1..size-1.
      boolean[] cut = new boolean[cs.size()];
      for (int chosen = 0; chosen < parts - 1; ) {
        int p = 1 + random.nextInt(cs.size() - 1);
        if (!cut[p]) {
          cut[p] = true;
          chosen++;
        }
      }
      int from = 0;
      for (int i = 1; i <= cs.size(); i++) {
        if (i == cs.size() || cut[i]) {
          out.add(new Step(cs.subList(from, i)));
          from = i;
        }
      }
    }
    return new History(out);
  }

  /** Readable text that {@link #parse} reads back; see there for the format. */
  public String toText() {
    return HistoryText.render(this);
  }

  /**
   * Reads the text of {@link #toText}. The format, one item per line:
   *
   * <pre>
   * # a comment (also blank lines are ignored)
   * step 0
   *   orders +1 [1, 'ann', NULL, 2.5, 0.1d, DATE '2024-01-02']
   *   orders -1 [1, 'ann', NULL, 2.5, 0.1d, DATE '2024-01-02']
   * step 1
   *   lines +2 [7, TRUE, x'00ff', TIMESTAMP '2024-01-01T00:00:00Z']
   * </pre>
   *
   * <p>{@code step} starts a transaction (its number is only for the reader); each change line is
   * the input name, a signed weight and the row. Values: {@code NULL}, {@code TRUE}/{@code
   * FALSE}, integers, exact decimals ({@code 2.5}, {@code 1E+30}), doubles with a {@code d} suffix
   * ({@code 0.1d}, {@code NaNd}, {@code -Infinityd}), strings in single quotes with {@code \\},
   * {@code \'}, {@code \n} and backslash-u-four-hex-digits escapes, {@code x'hex'} bytes, {@code DATE '...'}
   * and {@code TIMESTAMP '...'} (an ISO instant).
   *
   * @throws IllegalArgumentException naming the line and column of the first error
   */
  public static History parse(String text) {
    return HistoryText.parse(text);
  }

  @Override
  public String toString() {
    return toText();
  }
}
