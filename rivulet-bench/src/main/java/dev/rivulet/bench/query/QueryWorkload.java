package dev.rivulet.bench.query;

import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.engine.Row;
import dev.rivulet.query.Query;
import dev.rivulet.query.SourceCollection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One of the peers' workloads written with the query builder: its query over the collections, its
 * update mixes (the {@link PeerData} streams of the same name), and the naive recomputation its
 * live result is checked against.
 */
abstract class QueryWorkload {
  /** "W1", "W2" or "W3", as the peers name it. */
  abstract String name();

  /** The name of the {@link PeerData#updates} streams this workload is fed with. */
  String streamName() {
    return name();
  }

  /** The update mixes, run in this order on the same data and live query. */
  List<String> mixes() {
    return List.of("mixed");
  }

  boolean readsUsers() {
    return false;
  }

  boolean readsProjects() {
    return false;
  }

  /** The query; {@code users} and {@code projects} are null unless read. */
  abstract Query query(SourceCollection issues, SourceCollection users, SourceCollection projects);

  /**
   * For an unordered workload, the same query with an order (and the same update streams), which
   * the window face needs; null when there is none or the workload is ordered.
   */
  QueryWorkload orderedVariant() {
    return null;
  }

  /** Whether the result is ordered (compared as a list) or a set (compared as a multiset). */
  boolean ordered() {
    return false;
  }

  /** The result recomputed naively from the driver's current data, in the result's columns. */
  abstract List<Row> naive(PeerData.Issue[] current, Tables.Data data);

  /** Null when {@code actual} equals the naive result, else the first difference. */
  final String check(List<Row> actual, PeerData.Issue[] current, Tables.Data data, String when) {
    List<Row> expected = naive(current, data);
    if (ordered()) {
      return firstDifference(actual, expected, when);
    }
    Map<Row, Integer> counts = new HashMap<>();
    for (Row r : expected) {
      counts.merge(r, 1, Integer::sum);
    }
    for (Row r : actual) {
      Integer c = counts.get(r);
      if (c == null) {
        return when + ": live result has " + r + ", which the naive result has not (sizes " + actual.size()
            + " and " + expected.size() + ")";
      }
      if (c == 1) {
        counts.remove(r);
      } else {
        counts.put(r, c - 1);
      }
    }
    if (!counts.isEmpty()) {
      return when + ": live result misses " + counts.keySet().iterator().next() + " (sizes " + actual.size()
          + " and " + expected.size() + ")";
    }
    return null;
  }

  /** Null when {@code actual} equals {@code expected} in order, else the first difference. */
  static String firstDifference(List<Row> actual, List<Row> expected, String when) {
    for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
      Row e = i < expected.size() ? expected.get(i) : null;
      Row a = i < actual.size() ? actual.get(i) : null;
      if (e == null || !e.equals(a)) {
        return when + ": row " + i + " is " + a + ", naive has " + e + " (sizes " + actual.size() + " and "
            + expected.size() + ")";
      }
    }
    return null;
  }
}
