package dev.rivulet.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.query.SubsetRequest;
import dev.rivulet.testkit.Seeds;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A lazy table's SQL against a reference computed in Java from the table's rows: random subset
 * requests on comments (by issue or whole), in no order or ordered by nullable columns in either
 * direction, limited or not, after a keyset cursor that may hold NULLs, give per value exactly
 * the rows the request's definition selects, in its order.
 */
class SubsetSqlTest {
  private static final List<String> COLUMNS = List.of("id", "issue", "body");

  @ParameterizedTest
  @EnumSource(ReplicaDialect.class)
  void randomRequestsReadWhatTheyDefine(ReplicaDialect d) throws SQLException {
    String url = d.url("subset-sql");
    try (Connection keep = d.create(url); SqliteReplica replica = d.open(url, ReplicaOptions.lazy("comments"))) {
      Random fill = new Random(7);
      try (Statement st = keep.createStatement()) {
        for (int id = 100; id < 160; id++) {
          int issue = 1 + fill.nextInt(3);
          String body = fill.nextInt(4) == 0 ? "NULL" : "'b" + fill.nextInt(4) + "'";
          st.execute("INSERT INTO comments VALUES (" + id + ", " + (fill.nextInt(8) == 0 ? "NULL" : issue) + ", "
              + body + ")");
        }
      }
      List<Row> table = SqlRows.read(keep, "SELECT id, issue, body FROM comments");
      SqlLazySource source = replica.lazySource("comments");
      for (long seed : Seeds.runs(200)) {
        Random r = new Random(seed);
        SubsetRequest request = request(r, table);
        List<Row> expected = new ArrayList<>();
        for (Row value : request.values()) {
          expected.addAll(reference(table, request, value));
        }
        List<Row> got = source.read(request);
        boolean ordered = !request.order().isEmpty() || request.limit() != SubsetRequest.UNLIMITED
            || request.after() != null;
        String at = d + " seed " + seed + " (" + Seeds.replayHint(seed) + ") " + request;
        if (ordered) {
          assertThat(got).as(at).isEqualTo(expected);
        } else {
          assertThat(got).as(at).containsExactlyInAnyOrderElementsOf(expected);
        }
      }
      SubsetRequest badCursor = new SubsetRequest(List.of(), List.of(Row.of()), List.of(SubsetRequest.Order.asc("body")),
          3, Row.of("b1"));
      assertThatThrownBy(() -> source.read(badCursor)).hasMessageContaining("cursor");
    }
  }

  private static SubsetRequest request(Random r, List<Row> table) {
    boolean byIssue = r.nextInt(4) != 0;
    List<Row> values = new ArrayList<>();
    if (byIssue) {
      for (int k = 1 + r.nextInt(3); k > 0; k--) {
        values.add(Row.of(r.nextInt(5) == 0 ? null : (Object) (long) r.nextInt(5)));
      }
    } else {
      values.add(Row.of());
    }
    List<SubsetRequest.Order> order = new ArrayList<>();
    for (int k = r.nextInt(3); k > 0; k--) {
      String c = r.nextBoolean() ? "body" : "issue";
      order.add(r.nextBoolean() ? SubsetRequest.Order.desc(c) : SubsetRequest.Order.asc(c));
    }
    int limit = r.nextBoolean() ? SubsetRequest.UNLIMITED : 1 + r.nextInt(6);
    Row after = null;
    if (r.nextInt(3) == 0) {
      Row from = table.get(r.nextInt(table.size()));
      Object[] cursor = new Object[order.size() + 1];
      for (int i = 0; i < order.size(); i++) {
        cursor[i] = r.nextInt(4) == 0 ? null : from.get(COLUMNS.indexOf(order.get(i).column()));
      }
      cursor[order.size()] = from.get(0);
      after = Row.of(cursor);
    }
    return new SubsetRequest(byIssue ? List.of("issue") : List.of(), values, order, limit, after);
  }

  /** The rows of {@code value}: filtered, sorted (NULL first ascending, last descending; then id), after the cursor, limited. */
  private static List<Row> reference(List<Row> table, SubsetRequest request, Row value) {
    int[] sort = new int[request.order().size() + 1];
    boolean[] desc = new boolean[sort.length];
    for (int i = 0; i < request.order().size(); i++) {
      sort[i] = COLUMNS.indexOf(request.order().get(i).column());
      desc[i] = request.order().get(i).descending();
    }
    sort[sort.length - 1] = 0;
    Comparator<Row> keys = (a, b) -> {
      for (int i = 0; i < sort.length; i++) {
        int c = compareNullsFirst(a.get(i), b.get(i));
        if (c != 0) {
          return desc[i] ? -c : c;
        }
      }
      return 0;
    };
    List<Row> out = new ArrayList<>();
    for (Row row : table) {
      boolean match = true;
      for (int i = 0; i < request.columns().size(); i++) {
        Object v = row.get(COLUMNS.indexOf(request.columns().get(i)));
        match &= v == null ? value.get(i) == null : v.equals(value.get(i));
      }
      if (match && (request.after() == null || keys.compare(row.project(sort), request.after()) > 0)) {
        out.add(row);
      }
    }
    out.sort((a, b) -> keys.compare(a.project(sort), b.project(sort)));
    return out.size() > request.limit() ? out.subList(0, request.limit()) : out;
  }

  private static int compareNullsFirst(Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    return a instanceof Long x ? Long.compare(x, (Long) b) : ((String) a).compareTo((String) b);
  }
}
