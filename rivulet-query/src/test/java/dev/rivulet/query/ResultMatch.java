package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares an actual result list with a {@link NaiveQuery.Result}.
 *
 * <p>Unordered: the two must be equal as multisets. Ordered: position {@code i} of the actual list
 * must hold a row of the tie class at position {@code from + i} of the expected sorted list; the
 * rows taken from each class must be a sub-multiset of that class (all of it when the class lies
 * inside the window). With a total order every class is one row, and this is list equality; with
 * ties, it accepts exactly the answers that some tie-break gives, whatever that tie-break is (the
 * engine breaks ties by its whole internal row, a SQL engine as it likes).
 */
final class ResultMatch {
  private ResultMatch() {}

  /** Null when {@code actual} is a right answer, else what is wrong. */
  static String mismatch(NaiveQuery.Result expected, List<Row> actual) {
    if (!expected.ordered()) {
      return multisetDiff(expected.window(), actual);
    }
    List<Row> want = expected.window();
    if (want.size() != actual.size()) {
      return "expected " + want.size() + " rows but got " + actual.size() + "; " + firstDifference(want, actual);
    }
    int[] tie = expected.tieClass();
    Map<Integer, Map<Row, Integer>> classes = new HashMap<>();
    for (int i = 0; i < expected.rows().size(); i++) {
      classes.computeIfAbsent(tie[i], k -> new HashMap<>()).merge(expected.rows().get(i), 1, Integer::sum);
    }
    for (int i = 0; i < actual.size(); i++) {
      int cls = tie[expected.from() + i];
      Map<Row, Integer> left = classes.get(cls);
      Integer n = left.get(actual.get(i));
      if (n == null || n == 0) {
        boolean total = tieFree(expected, cls);
        return "position " + i + ": got " + actual.get(i) + " but expected "
            + (total ? want.get(i) : "one of the tied rows " + left.keySet());
      }
      left.put(actual.get(i), n - 1);
    }
    return null;
  }

  private static boolean tieFree(NaiveQuery.Result r, int cls) {
    int n = 0;
    for (int t : r.tieClass()) {
      n += t == cls ? 1 : 0;
    }
    return n == 1;
  }

  /** Null when equal as multisets, else the rows missing and unexpected. */
  static String multisetDiff(List<Row> expected, List<Row> actual) {
    Map<Row, Integer> counts = new LinkedHashMap<>();
    for (Row r : expected) {
      counts.merge(r, 1, Integer::sum);
    }
    for (Row r : actual) {
      counts.merge(r, -1, Integer::sum);
    }
    List<String> missing = new ArrayList<>();
    List<String> extra = new ArrayList<>();
    counts.forEach((r, n) -> {
      if (n > 0) {
        missing.add(r + (n > 1 ? " x" + n : ""));
      } else if (n < 0) {
        extra.add(r + (n < -1 ? " x" + (-n) : ""));
      }
    });
    if (missing.isEmpty() && extra.isEmpty()) {
      return null;
    }
    if (missing.toString().equals(extra.toString())) {
      // equal renderings: show the value classes (e.g. a Double against a BigDecimal)
      return "missing " + typed(counts, 1) + ", unexpected " + typed(counts, -1);
    }
    return "missing " + missing + ", unexpected " + extra;
  }

  private static List<String> typed(Map<Row, Integer> counts, int sign) {
    List<String> out = new ArrayList<>();
    counts.forEach((r, n) -> {
      if (Integer.signum(n) == sign) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < r.width(); i++) {
          Object v = r.get(i);
          sb.append(i > 0 ? ", " : "").append(dev.rivulet.testkit.RefValues.render(v))
              .append(v == null ? "" : ":" + v.getClass().getSimpleName());
        }
        out.add(sb.append(']').toString());
      }
    });
    return out;
  }

  private static String firstDifference(List<Row> want, List<Row> got) {
    String d = multisetDiff(want, got);
    return d == null ? "same rows" : d;
  }

  /** True when the two lists are equal as multisets. */
  static boolean sameMultiset(List<Row> a, List<Row> b) {
    return multisetDiff(a, b) == null;
  }
}
