package dev.rivulet.testkit;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.ZSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The state of one graph output rebuilt from its deltas: the consolidated multiset, and for a
 * positioned (top-K) output also each partition's window list, spliced from the positions.
 *
 * <p>{@link #fold} checks the delta contract of {@code ZSet} and {@code Output} as it goes: an
 * unpositioned delta is consolidated (no zero weight, no row twice); a positioned delta has a
 * position on every entry and, within each partition, its retractions first in strictly
 * descending position, then its insertions in strictly ascending position, and splices exactly
 * (a retraction names the row at its position). A delta that touches one partition is spliced
 * with {@link ZSet#spliceInto}; one that touches several is split by partition and each part
 * spliced by the same rule, since a positioned {@code ZSet} cannot be built outside the engine.
 */
final class FoldedOutput {
  final String name;
  /** Partition columns of a positioned output; null for an unpositioned one. */
  private final int[] partitionColumns;
  final Map<Row, Long> multiset = new HashMap<>();
  final Map<Row, List<Row>> windows = new HashMap<>();

  FoldedOutput(String name, int[] partitionColumns) {
    this.name = name;
    this.partitionColumns = partitionColumns;
  }

  boolean positioned() {
    return partitionColumns != null;
  }

  /** Folds one run's delta in; returns null, or what broke the contract. */
  String fold(ZSet delta) {
    String problem = positioned() ? splice(delta) : checkConsolidated(delta);
    if (problem != null) {
      return problem;
    }
    for (ZSet.Entry e : delta) {
      if (multiset.merge(e.row(), e.weight(), Math::addExact) == 0) {
        multiset.remove(e.row());
      }
    }
    return null;
  }

  private static String checkConsolidated(ZSet delta) {
    Set<Row> seen = new HashSet<>();
    for (ZSet.Entry e : delta) {
      if (e.weight() == 0) {
        return "the change is not consolidated: zero weight for " + HistoryText.renderRow(e.row()) + " in " + delta;
      }
      if (!seen.add(e.row())) {
        return "the change is not consolidated: " + HistoryText.renderRow(e.row()) + " appears twice in " + delta;
      }
    }
    return null;
  }

  private String splice(ZSet delta) {
    if (delta.isEmpty()) {
      return null;
    }
    Map<Row, List<ZSet.Entry>> parts = new LinkedHashMap<>();
    for (ZSet.Entry e : delta) {
      if (e.position() < 0) {
        return "the change of a positioned output has an entry without a position: " + e + " in " + delta;
      }
      if (e.weight() == 0) {
        return "the change has a zero weight entry " + e + " in " + delta;
      }
      parts.computeIfAbsent(e.row().project(partitionColumns), k -> new ArrayList<>()).add(e);
    }
    for (Map.Entry<Row, List<ZSet.Entry>> part : parts.entrySet()) {
      String order = checkOrder(part.getValue());
      if (order != null) {
        return "partition " + HistoryText.renderRow(part.getKey()) + ": " + order + " in " + delta;
      }
    }
    for (Map.Entry<Row, List<ZSet.Entry>> part : parts.entrySet()) {
      List<Row> window = windows.computeIfAbsent(part.getKey(), k -> new ArrayList<>());
      List<Row> before = List.copyOf(window);
      try {
        if (parts.size() == 1) {
          delta.spliceInto(window);
        } else {
          spliceEntries(part.getValue(), window);
        }
      } catch (IllegalArgumentException e) {
        return "partition " + HistoryText.renderRow(part.getKey()) + ": the change does not splice into window "
            + Render.list(before) + ": " + e.getMessage() + "; change " + delta;
      }
      if (window.isEmpty()) {
        windows.remove(part.getKey());
      }
    }
    return null;
  }

  /** Retractions first, strictly descending positions; then insertions, strictly ascending. */
  private static String checkOrder(List<ZSet.Entry> entries) {
    boolean inserting = false;
    int last = -1;
    for (ZSet.Entry e : entries) {
      if (e.weight() < 0) {
        if (inserting) {
          return "retraction " + e + " after an insertion";
        }
        if (last >= 0 && e.position() >= last) {
          return "retraction " + e + " not in descending position order (previous at " + last + ")";
        }
      } else {
        if (!inserting) {
          inserting = true;
          last = -1;
        }
        if (last >= 0 && e.position() <= last) {
          return "insertion " + e + " not in ascending position order (previous at " + last + ")";
        }
      }
      last = e.position();
    }
    return null;
  }

  /** The rule of {@link ZSet#spliceInto}, over the entries of one partition. */
  private static void spliceEntries(List<ZSet.Entry> entries, List<Row> window) {
    for (ZSet.Entry e : entries) {
      int p = e.position();
      long w = e.weight();
      for (long k = 0; k < Math.abs(w); k++) {
        if (w < 0) {
          if (p >= window.size() || !window.get(p).equals(e.row())) {
            throw new IllegalArgumentException("retraction " + e + " does not match "
                + (p < window.size() ? window.get(p) : "the end of a window of " + window.size()));
          }
          window.remove(p);
        } else {
          if (p + k > window.size()) {
            throw new IllegalArgumentException("insertion " + e + " is past the end of a window of " + window.size());
          }
          window.add((int) (p + k), e.row());
        }
      }
    }
  }
}
