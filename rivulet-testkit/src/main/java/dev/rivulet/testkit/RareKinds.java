package dev.rivulet.testkit;

import dev.rivulet.engine.Row;
import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.Set;

/**
 * The rare kinds of values that operators and expressions get wrong, and a tally of how many
 * checked states held each, so that a random suite can show in its summary line that its
 * generators reach them (a kind no state holds is a kind no default run can find a bug in).
 */
public final class RareKinds {
  /** One rare kind. */
  public enum Kind {
    /** Text with a character beyond U+FFFF (a surrogate pair in UTF-16). */
    SURROGATE,
    /** Text with a character in U+E000..U+FFFF, above the surrogates as a UTF-16 unit. */
    HIGH_BMP,
    /** Both in one state: UTF-16 order and code-point order of two values differ. */
    ORDER_FLIP,
    /** The empty string. */
    EMPTY_STRING,
    /** A row of width three or more with at most one non-NULL value. */
    NULL_ROW,
    /** A number at or beyond 2^53 in magnitude (64-bit extremes, huge decimals), or not finite. */
    EXTREME_NUMBER
  }

  private RareKinds() {}

  /** The rare kinds among {@code rows}. */
  public static Set<Kind> of(Iterable<Row> rows) {
    EnumSet<Kind> out = EnumSet.noneOf(Kind.class);
    for (Row r : rows) {
      int nonNull = 0;
      for (int i = 0; i < r.width(); i++) {
        Object v = r.get(i);
        if (v != null) {
          nonNull++;
          value(v, out);
        }
      }
      if (r.width() >= 3 && nonNull <= 1) {
        out.add(Kind.NULL_ROW);
      }
    }
    if (out.contains(Kind.SURROGATE) && out.contains(Kind.HIGH_BMP)) {
      out.add(Kind.ORDER_FLIP);
    }
    return out;
  }

  private static void value(Object v, Set<Kind> out) {
    if (v instanceof String s) {
      if (s.isEmpty()) {
        out.add(Kind.EMPTY_STRING);
      }
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (Character.isSurrogate(c)) {
          out.add(Kind.SURROGATE);
        } else if (c >= 0xE000) {
          out.add(Kind.HIGH_BMP);
        }
      }
    } else if (v instanceof Long l) {
      if (l >= 1L << 53 || l <= -(1L << 53)) {
        out.add(Kind.EXTREME_NUMBER);
      }
    } else if (v instanceof Double d) {
      if (!Double.isFinite(d) || Math.abs(d) >= 0x1p53) {
        out.add(Kind.EXTREME_NUMBER);
      }
    } else if (v instanceof BigDecimal bd && bd.abs().compareTo(BigDecimal.valueOf(1L << 53)) >= 0) {
      out.add(Kind.EXTREME_NUMBER);
    }
  }

  /** Counts of checked states per rare kind. Thread-safe. */
  public static final class Tally {
    private long states;
    private final long[] counts = new long[Kind.values().length];

    /** Counts one checked state holding {@code rows}. */
    public synchronized void add(Iterable<Row> rows) {
      states++;
      for (Kind k : of(rows)) {
        counts[k.ordinal()]++;
      }
    }

    public synchronized long states() {
      return states;
    }

    public synchronized long count(Kind k) {
      return counts[k.ordinal()];
    }

    public synchronized void reset() {
      states = 0;
      java.util.Arrays.fill(counts, 0);
    }

    /** e.g. {@code "1200 states: SURROGATE 310, HIGH_BMP 280, ..."}. */
    @Override
    public synchronized String toString() {
      StringBuilder sb = new StringBuilder().append(states).append(" checked states with rare values:");
      for (Kind k : Kind.values()) {
        sb.append(' ').append(k.name().toLowerCase(java.util.Locale.ROOT)).append(' ').append(counts[k.ordinal()]);
      }
      return sb.toString();
    }
  }

  /** The tally of the testkit's trace runner (every checked step of every operator suite). */
  public static final Tally TRACES = new Tally();
}
