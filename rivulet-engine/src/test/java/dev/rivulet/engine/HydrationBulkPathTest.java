package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The bulk paths a hydration takes agree with the row-at-a-time paths they replace: {@link
 * Input#sendAll} against one {@link Input#send(Row, long, Schema)} per row (through a filter, a
 * map and a top-K, including typed rows, NULL sort keys and duplicate rows, then the same later
 * changes with retractions on both); {@link RowOrder#prefixes} against {@link RowOrder#first} and
 * {@link RowOrder#second}; {@link Delta#addAll} of a batch or an array against {@link Delta#add}
 * one entry at a time, also into a buffer that carries positions. Fixed seeds, named in every
 * failure.
 */
class HydrationBulkPathTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, grp STRING, score INT, ratio DOUBLE, name STRING");
  private static final String[] GROUPS = {"a", "b", "c", null};

  private static Row randomRow(Random rnd, int ids) {
    Long score = rnd.nextInt(6) == 0 ? null : (long) rnd.nextInt(20);
    Object ratio = rnd.nextInt(5) == 0 ? null : rnd.nextBoolean() ? (Object) 2L : (Object) (rnd.nextInt(8) / 4.0);
    return Row.of((long) rnd.nextInt(ids), GROUPS[rnd.nextInt(GROUPS.length)], score, ratio,
        rnd.nextBoolean() ? "n" + rnd.nextInt(3) : null);
  }

  private static Graph graph(boolean partitioned) {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", S).filter(r -> !"c".equals(r.get(1)));
    Stream kept = in.map(S, r -> r); // a second operator between the input and the top-K
    List<SortKey> order = List.of(SortKey.desc("score"), SortKey.asc("ratio"), SortKey.asc("id"));
    b.output("out", partitioned ? kept.topK(List.of("grp"), order, 1, 4) : kept.topK(order, 0, 7));
    b.output("all", in);
    return b.build();
  }

  @Test
  void sendAllAgreesWithOneSendPerRow() {
    for (long seed = 1; seed <= 40; seed++) {
      Random rnd = new Random(seed);
      boolean partitioned = seed % 2 == 0;
      Graph bulk = graph(partitioned);
      Graph single = graph(partitioned);
      int n = rnd.nextInt(seed < 5 ? 3 : 900);
      Row[] rows = new Row[n];
      Row[] copy = new Row[n];
      for (int i = 0; i < n; i++) {
        Row r = randomRow(rnd, 60); // duplicates: ids repeat, whole rows sometimes too
        rows[i] = rnd.nextInt(4) == 0 ? S.present(r) : r; // typed rows are canonicalized
        copy[i] = rows[i];
      }
      bulk.input("in").sendAll(rows, n, S);
      for (Row r : copy) {
        single.input("in").send(r, 1, S);
      }
      for (Row r : rows) {
        assertThat(r.isTyped()).as("seed %d: sendAll leaves canonical rows", seed).isFalse();
      }
      bulk.run();
      single.run();
      assertSame(bulk, single, seed, "hydration");
      List<Row> held = new ArrayList<>(List.of(copy));
      for (int step = 0; step < 5; step++) {
        for (int k = rnd.nextInt(6); k > 0; k--) {
          if (!held.isEmpty() && rnd.nextBoolean()) {
            Row gone = held.remove(rnd.nextInt(held.size()));
            bulk.input("in").send(gone, -1, S);
            single.input("in").send(gone, -1, S);
          } else {
            Row r = randomRow(rnd, 60);
            held.add(r);
            bulk.input("in").send(r, 1, S);
            single.input("in").send(r, 1, S);
          }
        }
        bulk.run();
        single.run();
        assertSame(bulk, single, seed, "change " + step);
      }
    }
  }

  private static void assertSame(Graph bulk, Graph single, long seed, String when) {
    for (String out : List.of("out", "all")) {
      ZSet b = bulk.output(out).delta();
      ZSet s = single.output(out).delta();
      assertThat(entries(b)).as("seed %d, %s, output %s", seed, when, out).isEqualTo(entries(s));
    }
  }

  private static List<ZSet.Entry> entries(ZSet z) {
    List<ZSet.Entry> out = new ArrayList<>();
    z.forEach(out::add);
    return out;
  }

  @Test
  void prefixesAgreeWithFirstAndSecond() {
    ColumnType[][] typings = {
        {ColumnType.INT, ColumnType.INT}, {ColumnType.INT, ColumnType.STRING}, {ColumnType.STRING, ColumnType.INT},
        {ColumnType.DOUBLE, ColumnType.INT}, {ColumnType.INT}, {}};
    for (long seed = 1; seed <= 60; seed++) {
      Random rnd = new Random(seed);
      ColumnType[] types = typings[(int) (seed % typings.length)];
      int[] columns = new int[types.length];
      boolean[] descending = new boolean[types.length];
      boolean[] nullsFirst = new boolean[types.length];
      for (int i = 0; i < types.length; i++) {
        columns[i] = i;
        descending[i] = rnd.nextBoolean();
        nullsFirst[i] = rnd.nextBoolean();
      }
      RowOrder order = new RowOrder(columns, descending, nullsFirst, types);
      int n = rnd.nextInt(300);
      Row[] rows = new Row[n];
      for (int i = 0; i < n; i++) {
        Object[] values = new Object[Math.max(1, types.length)];
        for (int c = 0; c < types.length; c++) {
          values[c] = rnd.nextInt(5) == 0 ? null : value(types[c], rnd);
        }
        rows[i] = Row.of(values);
      }
      long[] first = new long[n];
      long[] second = new long[n];
      order.prefixes(rows, n, first, second);
      for (int i = 0; i < n; i++) {
        assertThat(first[i]).as("seed %d row %s first", seed, rows[i]).isEqualTo(order.first(rows[i]));
        assertThat(second[i]).as("seed %d row %s second", seed, rows[i]).isEqualTo(order.second(rows[i]));
      }
    }
  }

  private static Object value(ColumnType type, Random rnd) {
    return switch (type) {
      case INT -> rnd.nextInt(4) == 0 ? (rnd.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE) : (long) rnd.nextInt(9) - 4;
      case DOUBLE -> rnd.nextInt(9) / 2.0 - 2;
      default -> "s" + rnd.nextInt(5);
    };
  }

  @Test
  void addAllAgreesWithAddOneByOne() {
    for (long seed = 1; seed <= 30; seed++) {
      Random rnd = new Random(seed);
      Delta bulk = new Delta();
      Delta single = new Delta();
      for (int step = 0; step < 6; step++) {
        int kind = rnd.nextInt(3);
        if (kind == 0) { // a positioned entry: the buffer then carries positions
          Row r = Row.of((long) rnd.nextInt(9));
          int position = rnd.nextInt(5);
          bulk.add(r, 1, position);
          single.add(r, 1, position);
          continue;
        }
        int n = rnd.nextInt(seed < 4 ? 2 : 40);
        Delta other = new Delta();
        Row[] rows = new Row[n];
        for (int i = 0; i < n; i++) {
          rows[i] = Row.of((long) rnd.nextInt(9));
          other.add(rows[i], rnd.nextInt(5) - 2, rnd.nextInt(3) - 1); // positions are dropped
        }
        if (kind == 1) {
          bulk.addAll(other);
          for (int i = 0; i < n; i++) {
            single.add(other.rows[i], other.weights[i]);
          }
        } else {
          long w = rnd.nextInt(3) + 1;
          bulk.addAll(rows, n, w);
          for (int i = 0; i < n; i++) {
            single.add(rows[i], w);
          }
        }
      }
      assertThat(bulk.size).as("seed %d", seed).isEqualTo(single.size);
      for (int i = 0; i < single.size; i++) {
        assertThat(bulk.rows[i]).as("seed %d entry %d", seed, i).isEqualTo(single.rows[i]);
        assertThat(bulk.weights[i]).as("seed %d entry %d", seed, i).isEqualTo(single.weights[i]);
        assertThat(bulk.positions == null ? -1 : bulk.positions[i]).as("seed %d entry %d", seed, i)
            .isEqualTo(single.positions == null ? -1 : single.positions[i]);
      }
    }
  }
}
