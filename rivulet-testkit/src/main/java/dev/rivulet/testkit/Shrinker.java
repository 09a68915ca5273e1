package dev.rivulet.testkit;

import dev.rivulet.engine.Row;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Shrinks a failing {@link History} to a smaller one that still fails.
 *
 * <p>Contract: given a valid history for which {@code stillFails} is true, returns a valid history
 * for which it is true (the input itself if nothing smaller fails), calling the predicate at most
 * {@code maxAttempts} times. Every accepted candidate is strictly smaller in the order of {@link
 * #measure}, so shrinking terminates even without the bound.
 *
 * <p>Passes, repeated until a full round makes no progress: drop chunks of steps (halves, then
 * quarters, ... single steps), drop chunks of changes within each step, reduce weights toward one,
 * split steps in two, and replace values by simpler ones (an integer toward zero, a decimal or
 * double by an integer, a string by a shorter one). Value replacement is applied to every row of
 * one input at once, so a row's insertion and its later retraction stay paired. Candidates that
 * would retract absent rows are {@linkplain History#repaired() repaired} first.
 */
public final class Shrinker {
  private final Predicate<History> stillFails;
  private final int maxAttempts;
  private int attempts;
  private int accepted;
  private History best;

  private Shrinker(History failing, Predicate<History> stillFails, int maxAttempts) {
    this.best = failing;
    this.stillFails = stillFails;
    this.maxAttempts = maxAttempts;
  }

  /** What shrinking gave: the smallest failing history found and the effort it took. */
  public record Result(History history, int attempts, int accepted) {}

  /**
   * Shrinks {@code failing}.
   *
   * @throws IllegalArgumentException when {@code failing} is not valid
   */
  public static Result shrink(History failing, Predicate<History> stillFails, int maxAttempts) {
    if (!failing.isValid()) {
      throw new IllegalArgumentException("cannot shrink an invalid history (it retracts absent rows)");
    }
    Shrinker s = new Shrinker(failing, stillFails, maxAttempts);
    s.run();
    return new Result(s.best, s.attempts, s.accepted);
  }

  private void run() {
    boolean progress = true;
    while (progress && attempts < maxAttempts) {
      progress = dropSteps() | dropChanges() | smallerWeights() | splitSteps() | simplerValues();
    }
  }

  /** Tries {@code candidate} (after repair); keeps it when smaller and still failing. */
  private boolean attempt(History candidate) {
    if (attempts >= maxAttempts) {
      return false;
    }
    History c = candidate.repaired();
    if (compare(measure(c), measure(best)) >= 0) {
      return false;
    }
    attempts++;
    if (stillFails.test(c)) {
      best = c;
      accepted++;
      return true;
    }
    return false;
  }

  private boolean dropSteps() {
    boolean any = false;
    for (int chunk = Math.max(1, best.size() / 2); chunk >= 1; chunk /= 2) {
      for (int from = 0; from < best.size(); ) {
        List<History.Step> steps = new ArrayList<>(best.steps());
        steps.subList(from, Math.min(from + chunk, steps.size())).clear();
        if (attempt(new History(steps))) {
          any = true;
        } else {
          from += chunk;
        }
      }
    }
    return any;
  }

  private boolean dropChanges() {
    boolean any = false;
    for (int s = 0; s < best.size(); s++) {
      for (int chunk = Math.max(1, best.step(s).changes().size() / 2); chunk >= 1; chunk /= 2) {
        for (int from = 0; s < best.size() && from < best.step(s).changes().size(); ) {
          List<History.Change> cs = new ArrayList<>(best.step(s).changes());
          cs.subList(from, Math.min(from + chunk, cs.size())).clear();
          if (attempt(replaceStep(best, s, List.of(new History.Step(cs))))) {
            any = true;
          } else {
            from += chunk;
          }
        }
      }
    }
    return any;
  }

  private boolean smallerWeights() {
    boolean any = false;
    for (int s = 0; s < best.size(); s++) {
      for (int i = 0; s < best.size() && i < best.step(s).changes().size(); i++) {
        History.Change c = best.step(s).changes().get(i);
        long w = c.weight();
        for (long smaller : new long[] {Long.signum(w), w / 2, w - Long.signum(w)}) {
          if (Math.abs(smaller) >= 1 && Math.abs(smaller) < Math.abs(w)) {
            List<History.Change> cs = new ArrayList<>(best.step(s).changes());
            cs.set(i, new History.Change(c.input(), c.row(), smaller));
            if (attempt(replaceStep(best, s, List.of(new History.Step(cs))))) {
              any = true;
              break;
            }
          }
        }
      }
    }
    return any;
  }

  private boolean splitSteps() {
    boolean any = false;
    for (int s = 0; s < best.size(); s++) {
      List<History.Change> cs = best.step(s).changes();
      if (cs.size() >= 2) {
        int mid = cs.size() / 2;
        any |= attempt(replaceStep(best, s,
            List.of(new History.Step(cs.subList(0, mid)), new History.Step(cs.subList(mid, cs.size())))));
      }
    }
    return any;
  }

  private boolean simplerValues() {
    boolean any = false;
    Set<String> inputs = new LinkedHashSet<>();
    for (History.Step s : best.steps()) {
      for (History.Change c : s.changes()) {
        inputs.add(c.input());
      }
    }
    for (String input : inputs) {
      int width = widthOf(input);
      for (int col = 0; col < width; col++) {
        Set<Object> values = new LinkedHashSet<>();
        for (History.Step s : best.steps()) {
          for (History.Change c : s.changes()) {
            if (c.input().equals(input) && c.row().width() > col) {
              values.add(c.row().get(col));
            }
          }
        }
        for (Object v : values) {
          for (Object simpler : simpler(v)) {
            any |= attempt(substitute(best, input, col, v, simpler));
          }
        }
      }
    }
    return any;
  }

  private int widthOf(String input) {
    for (History.Step s : best.steps()) {
      for (History.Change c : s.changes()) {
        if (c.input().equals(input)) {
          return c.row().width();
        }
      }
    }
    return 0;
  }

  private static History substitute(History h, String input, int col, Object from, Object to) {
    List<History.Step> steps = new ArrayList<>(h.size());
    for (History.Step s : h.steps()) {
      List<History.Change> cs = new ArrayList<>(s.changes().size());
      for (History.Change c : s.changes()) {
        Row r = c.row();
        if (c.input().equals(input) && r.width() > col && java.util.Objects.equals(r.get(col), from)) {
          r = r.with(col, to);
        }
        cs.add(r == c.row() ? c : new History.Change(c.input(), r, c.weight()));
      }
      steps.add(new History.Step(cs));
    }
    return new History(steps);
  }

  /** Simpler values of the same column type, simplest first. */
  private static List<Object> simpler(Object v) {
    List<Object> out = new ArrayList<>(3);
    if (v instanceof Long l && l != 0) {
      out.add(0L);
      if (Math.abs(l / 2) > 0) {
        out.add(l / 2);
      }
      out.add(l > 0 ? l - 1 : l + 1);
    } else if ((v instanceof Double d && Double.isFinite(d)) || v instanceof BigDecimal) {
      // Doubles and decimals live in DOUBLE, DECIMAL or ANY columns, which all accept integers.
      out.add(0L);
      out.add(truncate((Number) v));
    } else if (v instanceof String s && !s.isEmpty()) {
      out.add("");
      if (s.codePointCount(0, s.length()) > 1) {
        out.add(s.substring(0, s.offsetByCodePoints(0, 1)));
      }
    }
    return out;
  }

  private static History replaceStep(History h, int index, List<History.Step> with) {
    List<History.Step> steps = new ArrayList<>(h.steps());
    steps.remove(index);
    steps.addAll(index, with);
    return new History(steps);
  }

  /**
   * The size order shrinking descends: total weight mass, then change entries, then the sum of
   * squared step sizes (smaller steps), then step count, then value complexity.
   */
  private static final long SMALL = 1L << 20;

  static long[] measure(History h) {
    long mass = 0;
    long entries = 0;
    long squares = 0;
    long complexity = 0;
    for (History.Step s : h.steps()) {
      long n = s.changes().size();
      squares += n * n;
      entries += n;
      for (History.Change c : s.changes()) {
        mass += Math.min(Math.abs(c.weight()), 1L << 40);
        for (int i = 0; i < c.row().width(); i++) {
          complexity += complexity(c.row().get(i));
        }
      }
    }
    return new long[] {mass, entries, squares, h.size(), complexity};
  }

  /**
   * How complex a value is: for integers strictly growing with the magnitude below 2^20 (so that
   * {@code l - 1} is simpler than {@code l}: counting bits made 4 no simpler than 5, and a shrink
   * could stop at 5 when 3 still failed), then by bit count; doubles and decimals above every
   * integer (so their integer part is simpler).
   */
  private static long complexity(Object v) {
    if (v instanceof Long l) {
      long sign = l < 0 ? 1 : 0;
      if (l > -SMALL && l < SMALL) {
        return 2 * Math.abs(l) + sign;
      }
      long bits = l == Long.MIN_VALUE ? 64 : 64 - Long.numberOfLeadingZeros(Math.abs(l));
      return 2 * SMALL + 2 * bits + sign;
    }
    if (v instanceof Double || v instanceof BigDecimal) {
      return 4 * SMALL;
    }
    if (v instanceof String s) {
      return s.length();
    }
    return 0;
  }

  private static int compare(long[] a, long[] b) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] != b[i]) {
        return Long.compare(a[i], b[i]);
      }
    }
    return 0;
  }

  /** The integer part of a finite number, as a {@link java.math.BigInteger} (the row canonicalizes it). */
  private static Object truncate(Number n) {
    BigDecimal d = n instanceof BigDecimal b ? b : new BigDecimal(n.doubleValue());
    return d.setScale(0, java.math.RoundingMode.DOWN).toBigInteger();
  }
}
