package dev.rivulet.testkit;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Graph;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SortKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Oracle properties of top-K: the folded multiset and, spliced from the positions, each
 * partition's window list in exact order, after every step. With and without partitions, with an
 * offset, an offset past the end, limit 0, no limit, nulls first and last, descending, several
 * sort keys, and long histories whose windows are large next to each change.
 */
class TopKOracleTest extends OracleSuite {
  static final Schema T = Schema.parse("p INT, x INT, y STRING, z DOUBLE");
  static final long ALL = Long.MAX_VALUE;

  static List<Scenario> scenarios() {
    List<Scenario> out = new ArrayList<>();
    out.add(topK("topk-asc", List.of(), List.of(SortKey.asc("x")), 0, 3));
    out.add(topK("topk-desc-by-p", List.of("p"), List.of(SortKey.desc("x")), 0, 2));
    out.add(topK("topk-offset-by-p", List.of("p"), List.of(SortKey.asc("y"), SortKey.desc("z")), 1, 2));
    out.add(topK("topk-offset", List.of(), List.of(SortKey.desc("z"), SortKey.asc("x")), 2, 3));
    out.add(topK("topk-offset-past-end", List.of(), List.of(SortKey.asc("x")), 100, 5));
    out.add(topK("topk-offset-near-end-by-p", List.of("p"), List.of(SortKey.asc("x")), 4, 2));
    out.add(topK("topk-limit-zero", List.of("p"), List.of(SortKey.asc("x")), 0, 0));
    out.add(topK("topk-asc-nulls-first", List.of(), List.of(SortKey.asc("x").withNullsFirst()), 0, 4));
    out.add(topK("topk-desc-nulls-last", List.of(), List.of(SortKey.desc("x").withNullsLast()), 0, 4));
    out.add(topK("topk-two-keys-by-y", List.of("y"), List.of(SortKey.asc("z").withNullsFirst(), SortKey.desc("p")), 0, 2));
    out.add(topK("topk-no-limit-offset", List.of(), List.of(SortKey.asc("z")), 2, ALL));
    out.add(topK("topk-order-by", List.of(), List.of(SortKey.asc("y"), SortKey.desc("x")), 0, ALL));
    out.add(topK("topk-order-by-p", List.of("p"), List.of(SortKey.desc("y")), 0, ALL));
    // Long histories of small steps: windows much larger than each change.
    HistoryGenerator longer = HistoryGenerator.over("t", T).withMaxSteps(40).withMaxChangesPerStep(3).withDomainSize(5);
    out.add(topK("topk-large-window", List.of(), List.of(SortKey.asc("x"), SortKey.desc("y")), 3, 20)
        .withGenerator(longer).withBaseRuns(60));
    out.add(topK("topk-large-order-by", List.of(), List.of(SortKey.desc("z")), 0, ALL)
        .withGenerator(longer).withBaseRuns(60));
    out.add(topK("topk-large-offset-by-p", List.of("p"), List.of(SortKey.asc("y")), 5, 6)
        .withGenerator(longer).withBaseRuns(60));
    out.add(topK("topk-special-doubles-by-p", List.of("p"), List.of(SortKey.desc("z")), 1, 3)
        .withGenerator(HistoryGenerator.over("t", T)
            .withPalette(ColumnType.DOUBLE, GroupByOracleTest.SPECIAL_DOUBLES).withDomainSize(4).mixed()));
    return out;
  }

  private static Scenario topK(String name, List<String> partitionBy, List<SortKey> order, long offset, long limit) {
    return new Scenario(OracleRunner.builder(name, Map.of("t", T), () -> {
      GraphBuilder b = Graph.builder();
      b.output("out", b.input("t", T).topK(partitionBy, order, offset, limit));
      return b.build();
    }).windows("out", partitionBy, in -> Naive.topK(in.get("t"), T, partitionBy, order, offset, limit)).build());
  }
}
