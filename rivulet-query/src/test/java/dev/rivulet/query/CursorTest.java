package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.sql.SqlDialect;
import dev.rivulet.testkit.Seeds;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Query#after} and {@link LiveWindow#reanchor} against SQL keyset pagination, in SQLite and
 * H2: a table {@code t(id, a, b, c)} with many NULLs and ties, random orders of one or two sort keys
 * (mixed directions, explicit or default NULL placement; the total order ends with {@code id}
 * ascending), random cursors (taken from rows' cursors, perturbed, or made of random values with
 * NULLs) and random limits. The SQL side is {@code WHERE <strictly after the cursor> ORDER BY
 * <keys>, id LIMIT k}, the predicate written out here as the lexicographic OR of ANDs with explicit
 * NULL handling per component (a row value comparison {@code (k1, k2, id) > (...)} handles neither
 * mixed directions nor NULLs).
 *
 * <p>{@code RIVULET_SEED} replays one seed; {@code RIVULET_RUNS} multiplies the seed counts. A
 * failure names its seed.
 */
class CursorTest {
  private static final Schema SCHEMA = Schema.parse("id INT NOT NULL, a INT, b STRING, c DOUBLE");
  private static final String[] COLUMNS = {"id", "a", "b", "c"};
  // Small domains: ties everywhere. ASCII only, so that SQLite's and H2's default string orders
  // agree with Rivulet's code point order.
  private static final String[] STRINGS = {"", "a", "A", "b", "ab"};
  private static final String[] CURSOR_STRINGS = {"", "a", "A", "aa", "b", "ab", "c", "Z", "a'b"};
  private static final double[] DOUBLES = {-1.5, 0.0, 0.5, 1.0, 2.25};
  private static final double[] CURSOR_DOUBLES = {-2.0, -1.5, 0.0, 0.25, 0.5, 1.0, 2.25, 3.0};

  private static SqlDatabase sqlite;
  private static SqlDatabase h2;

  @BeforeAll
  static void openDatabases() throws SQLException {
    sqlite = new SqlDatabase(SqlDialect.SQLITE);
    sqlite.create("t", SCHEMA);
    h2 = new SqlDatabase(SqlDialect.H2);
    h2.create("t", SCHEMA);
  }

  @AfterAll
  static void closeDatabases() throws SQLException {
    if (sqlite != null) {
      sqlite.close();
    }
    if (h2 != null) {
      h2.close();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 1. after(cursor) on a fixed table equals SQL keyset pagination.

  @Test
  void afterEqualsSqlKeysetPredicate() {
    for (long seed : Seeds.runs(40)) {
      World w = new World(seed);
      w.load();
      for (int o = 0; o < 3; o++) {
        List<Key> order = randomOrder(w.rnd);
        Query base = Query.from("t", w.t).orderBy(items(order));
        List<Cursor> known = knownCursors(w, base, order);
        for (int i = 0; i < 6; i++) {
          Cursor cursor = randomCursor(w, order, known);
          Long limit = randomLimit(w);
          long offset = randomOffset(w, limit);
          Query q = base.after(cursor);
          if (limit != null) {
            q = q.limit(limit);
          }
          if (offset > 0) {
            q = q.offset(offset);
          }
          LiveQuery live = w.db.liveQuery(w.name(), q);
          try {
            checkAgainstSql(w, order, cursor, limit, offset, live.rows(), "after on a fixed table");
          } finally {
            live.close();
          }
        }
      }
    }
  }

  /**
   * The cursors of the rows of {@code base}: from a window subscription's deltas and from its
   * snapshot; each is checked to be the row's sort-key values followed by its id.
   */
  private static List<Cursor> knownCursors(World w, Query base, List<Key> order) {
    LiveQuery full = w.db.liveQuery(w.name(), base);
    try {
      checkAgainstSql(w, order, null, null, full.rows(), "the order without a cursor");
      List<WindowBatch> batches = new ArrayList<>();
      LiveWindow lw = full.subscribeWindow(SubscribeOptions.sync(), batches::add);
      List<Cursor> out = new ArrayList<>();
      List<Row> folded = new ArrayList<>();
      for (WindowBatch b : batches) {
        fold(folded, b, order, w.context("initial window"));
        for (WindowDelta d : b.deltas()) {
          if (d.cursor() != null) {
            out.add(d.cursor());
          }
        }
      }
      assertThat(folded).as(w.context("initial window batch vs rows")).isEqualTo(full.rows());
      for (WindowSnapshot.Entry e : lw.snapshot().rows()) {
        assertThat(e.cursor()).as(w.context("snapshot cursor of " + e.row())).isEqualTo(cursorOf(e.row(), order));
        out.add(e.cursor());
      }
      lw.close();
      return out;
    } finally {
      full.close();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 2. Live queries with after(cursor) follow sync writes and deletes.

  @Test
  void afterStaysEqualToSqlUnderWrites() {
    for (long seed : Seeds.runs(12)) {
      World w = new World(seed);
      w.load();
      List<Spec> specs = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        List<Key> order = randomOrder(w.rnd);
        Query base = Query.from("t", w.t).orderBy(items(order));
        List<Cursor> known = w.rnd.nextBoolean() ? knownCursors(w, base, order) : List.of();
        Cursor cursor = randomCursor(w, order, known);
        Long limit = randomLimit(w);
        long offset = randomOffset(w, limit);
        Query q = base.after(cursor);
        if (limit != null) {
          q = q.limit(limit);
        }
        if (offset > 0) {
          q = q.offset(offset);
        }
        specs.add(new Spec(order, cursor, limit, offset, w.db.liveQuery(w.name(), q)));
      }
      for (int step = 0; step < 25; step++) {
        w.randomTransaction();
        w.load();
        for (Spec s : specs) {
          checkAgainstSql(w, s.order, s.cursor, s.limit, s.offset, s.live.rows(), "after step " + step);
        }
      }
    }
  }

  private record Spec(List<Key> order, Cursor cursor, Long limit, long offset, LiveQuery live) {}

  // ---------------------------------------------------------------------------------------------
  // 3. A reanchored window equals a fresh subscription to the moved query.

  @Test
  void reanchorEqualsFreshQuery() {
    for (long seed : Seeds.runs(20)) {
      World w = new World(seed);
      List<Throwable> errors = new ArrayList<>();
      w.db.onError((c, e) -> errors.add(e));
      List<Key> order = randomOrder(w.rnd);
      Query base = Query.from("t", w.t).orderBy(items(order));
      // The subscribed query may have its own cursor and limit; a reanchor replaces both.
      Query subscribed = base;
      Cursor cursor = null;
      Long limit = null;
      if (w.rnd.nextBoolean()) {
        cursor = randomCursor(w, order, List.of());
        subscribed = subscribed.after(cursor);
      }
      if (w.rnd.nextBoolean()) {
        limit = (long) w.rnd.nextInt(8);
        subscribed = subscribed.limit(limit);
      }
      LiveQuery origin = w.db.liveQuery(w.name(), subscribed);
      Cursor originCursor = cursor;
      Long originLimit = limit;
      List<WindowBatch> batches = new ArrayList<>();
      LiveWindow lw = origin.subscribeWindow(SubscribeOptions.sync(), batches::add);
      List<Row> folded = new ArrayList<>();
      long lastTx = Long.MIN_VALUE;
      LiveQuery fresh = origin; // what the window must equal
      for (int step = 0; step < 30; step++) {
        String what;
        if (w.rnd.nextInt(3) == 0) {
          List<Cursor> known = new ArrayList<>();
          for (WindowSnapshot.Entry e : lw.snapshot().rows()) {
            known.add(e.cursor());
          }
          for (WindowBatch b : batches) {
            for (WindowDelta d : b.deltas()) {
              if (d.cursor() != null) {
                known.add(d.cursor());
              }
            }
          }
          if (w.rnd.nextInt(5) == 0) {
            for (Row r : w.rows.values()) {
              known.add(cursorOf(r, order));
            }
          }
          cursor = w.rnd.nextInt(5) == 0 ? null : randomCursor(w, order, known);
          limit = w.rnd.nextInt(10) == 0 ? 1000L : (long) w.rnd.nextInt(w.maxId / 2 + 3);
          what = "reanchor(" + cursor + ", " + limit + ")";
          lw.reanchor(cursor, limit);
          if (fresh != origin) {
            fresh.close();
          }
          fresh = w.db.liveQuery(w.name(), (cursor == null ? base : base.after(cursor)).limit(limit));
        } else {
          what = "write";
          w.randomTransaction();
        }
        String ctx = "step " + step + " (" + what + "), window " + cursor + " limit " + limit;
        for (WindowBatch b : batches) {
          assertThat(b.txId()).as(w.context(ctx + ": batch txIds never go back")).isGreaterThanOrEqualTo(lastTx);
          lastTx = b.txId();
          fold(folded, b, order, w.context(ctx));
        }
        batches.clear();
        assertThat(errors).as(w.context(ctx + ": subscriber errors")).isEmpty();
        List<Row> freshRows = fresh.rows();
        assertThat(folded).as(w.context(ctx + ": folded window vs fresh query")).isEqualTo(freshRows);
        List<Row> snap = new ArrayList<>();
        for (WindowSnapshot.Entry e : lw.snapshot().rows()) {
          assertThat(e.index()).as(w.context(ctx + ": snapshot index")).isEqualTo(snap.size());
          assertThat(e.cursor()).as(w.context(ctx + ": snapshot cursor")).isEqualTo(cursorOf(e.row(), order));
          snap.add(e.row());
        }
        assertThat(snap).as(w.context(ctx + ": snapshot vs fresh query")).isEqualTo(freshRows);
        // SQL as well (not every step, for time): the window, and the origin query, which the
        // reanchors do not move.
        if (what.startsWith("reanchor") || step % 3 == 0 || step == 29) {
          w.load();
          checkAgainstSql(w, order, cursor, limit, folded, ctx + ": folded window");
          if (step % 2 == 0) {
            checkAgainstSql(w, order, originCursor, originLimit, origin.rows(), ctx + ": origin query");
          }
        }
      }
      lw.close();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 4. Errors.

  @Test
  void cursorOfTheWrongWidthIsRefusedNamingTheCount() {
    Rivulet db = Rivulet.create();
    SourceCollection t = db.collection("t", SCHEMA, List.of("id"));
    t.beginSync().write(Row.of(1, 1, "a", 0.5)).markReady().commit();
    Query one = Query.from("t", t).orderBy(Query.asc(col("t.a")));
    Query two = Query.from("t", t).orderBy(Query.desc(col("t.b")), Query.nullsLast(Query.asc(col("t.c"))));
    // one sort key + id = 2 values; two sort keys + id = 3 values
    assertThatThrownBy(() -> db.liveQuery("short", one.after(Cursor.of(7))))
        .isInstanceOf(QueryException.class).hasMessageMatching("(?s).*\\b2\\b.*");
    assertThatThrownBy(() -> db.liveQuery("long", one.after(Cursor.of(7, 8, 9))))
        .isInstanceOf(QueryException.class).hasMessageMatching("(?s).*\\b2\\b.*");
    assertThatThrownBy(() -> db.liveQuery("short2", two.after(Cursor.of("a", 7))))
        .isInstanceOf(QueryException.class).hasMessageMatching("(?s).*\\b3\\b.*");
    assertThatThrownBy(() -> db.liveQuery("empty", two.after(Cursor.of())))
        .isInstanceOf(QueryException.class).hasMessageMatching("(?s).*\\b3\\b.*");
    assertThatThrownBy(() -> one.after(Cursor.of(7)).ir()).isInstanceOf(QueryException.class)
        .hasMessageMatching("(?s).*\\b2\\b.*");

    // A reanchor to such a cursor is refused too, and leaves the window as it was.
    LiveQuery q = db.liveQuery("ok", one);
    List<WindowBatch> batches = new ArrayList<>();
    LiveWindow lw = q.subscribeWindow(SubscribeOptions.sync(), batches::add);
    int delivered = batches.size();
    assertThatThrownBy(() -> lw.reanchor(Cursor.of(1, 1, 1), 5)).isInstanceOf(QueryException.class)
        .hasMessageMatching("(?s).*\\b2\\b.*");
    assertThat(batches).hasSize(delivered);
    assertThat(lw.snapshot().rows()).hasSize(1);
    lw.reanchor(Cursor.of(0, 0), 5);
    assertThat(lw.snapshot().rows()).extracting(WindowSnapshot.Entry::row).containsExactly(Row.of(1, 1, "a", 0.5));
  }

  @Test
  void afterWithoutOrderByIsRefused() {
    Rivulet db = Rivulet.create();
    SourceCollection t = db.collection("t", SCHEMA, List.of("id"));
    Query unordered = Query.from("t", t).after(Cursor.of(1));
    assertThatThrownBy(() -> db.liveQuery("q", unordered)).isInstanceOf(QueryException.class)
        .hasMessageContaining("after");
    assertThatThrownBy(unordered::ir).isInstanceOf(QueryException.class);
    assertThatThrownBy(() -> db.liveQuery("q2", Query.from("t", t).where(Exprs.gt(col("t.a"), Exprs.lit(0)))
        .after(Cursor.of(1)))).isInstanceOf(QueryException.class);
  }

  // ---------------------------------------------------------------------------------------------
  // The world: one database, one collection t, its rows mirrored here and loaded into SQL.

  private static final class World {
    final long seed;
    final Random rnd;
    final Rivulet db = Rivulet.create();
    final SourceCollection t;
    final Map<Long, Row> rows = new TreeMap<>();
    final int maxId;
    private int names;

    World(long seed) {
      this.seed = seed;
      this.rnd = new Random(seed);
      this.t = db.collection("t", SCHEMA, List.of("id"));
      this.maxId = rnd.nextInt(5) == 0 ? rnd.nextInt(4) : 5 + rnd.nextInt(30);
      SourceCollection.SyncBatch b = t.beginSync();
      for (long id = 0; id <= maxId; id++) {
        if (rnd.nextInt(4) != 0) {
          Row r = randomRow(id);
          b.write(r);
          rows.put(id, r);
        }
      }
      b.markReady().commit();
    }

    Row randomRow(long id) {
      Object a = rnd.nextInt(3) == 0 ? null : (long) rnd.nextInt(4);
      Object b = rnd.nextInt(3) == 0 ? null : STRINGS[rnd.nextInt(STRINGS.length)];
      Object c = rnd.nextInt(3) == 0 ? null : DOUBLES[rnd.nextInt(DOUBLES.length)];
      return Row.of(id, a, b, c);
    }

    /** One sync transaction of one to four writes and deletes (some of absent rows). */
    void randomTransaction() {
      SourceCollection.SyncBatch b = t.beginSync();
      for (int i = rnd.nextInt(4); i >= 0; i--) {
        long id = rnd.nextInt(maxId + 3);
        if (rnd.nextInt(3) == 0) {
          b.delete(Row.of(id));
          rows.remove(id);
        } else {
          Row r = randomRow(id);
          b.write(r);
          rows.put(id, r);
        }
      }
      b.commit();
    }

    void load() {
      try {
        sqlite.replace("t", rows.values());
        h2.replace("t", rows.values());
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    String name() {
      return "q" + (++names);
    }

    String context(String what) {
      return "seed " + seed + " (replay: RIVULET_SEED=" + seed + "): " + what;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Orders, cursors, limits.

  /**
   * One component of the total order: a column of t, its direction and its NULL placement ({@code
   * explicit}: written with nullsFirst/nullsLast, else the default for the direction).
   */
  private record Key(int column, boolean descending, boolean nullsFirst, boolean explicit) {
    static final Key ID = new Key(0, false, false, true);

    QueryIR.OrderItem item() {
      Expr e = col("t." + COLUMNS[column]);
      QueryIR.OrderItem o = descending ? Query.desc(e) : Query.asc(e);
      if (!explicit) {
        return o;
      }
      return nullsFirst ? Query.nullsFirst(o) : Query.nullsLast(o);
    }

    String sql() {
      return QuerySqlRenderer.quote(COLUMNS[column]) + (descending ? " DESC" : " ASC")
          + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
    }

    @Override
    public String toString() {
      return sql() + (explicit ? "" : " (default)");
    }
  }

  private static List<Key> randomOrder(Random rnd) {
    List<Integer> pool = new ArrayList<>(List.of(1, 2, 3));
    if (rnd.nextInt(8) == 0) {
      pool.add(0); // id as a sort key too: the cursor then holds it twice
    }
    Collections.shuffle(pool, rnd);
    List<Key> out = new ArrayList<>();
    for (int i = 0, n = 1 + rnd.nextInt(2); i < n; i++) {
      boolean desc = rnd.nextBoolean();
      int p = rnd.nextInt(5);
      boolean explicit = p < 4;
      out.add(new Key(pool.get(i), desc, explicit ? p < 2 : desc, explicit));
    }
    return out;
  }

  private static QueryIR.OrderItem[] items(List<Key> order) {
    return order.stream().map(Key::item).toArray(QueryIR.OrderItem[]::new);
  }

  /** The total order: the sort keys, then id ascending. */
  private static List<Key> total(List<Key> order) {
    List<Key> out = new ArrayList<>(order);
    out.add(Key.ID);
    return out;
  }

  /** A row's cursor as the API defines it: its sort-key values, then its id. */
  private static Cursor cursorOf(Row row, List<Key> order) {
    List<Object> values = new ArrayList<>();
    for (Key k : total(order)) {
      values.add(row.get(k.column));
    }
    return new Cursor(values);
  }

  /** A known cursor, a known one with one component changed, or random values (with NULLs). */
  private static Cursor randomCursor(World w, List<Key> order, List<Cursor> known) {
    List<Key> total = total(order);
    int kind = w.rnd.nextInt(5);
    if (known.isEmpty() || kind == 0) {
      List<Object> values = new ArrayList<>();
      for (Key k : total) {
        values.add(randomValue(w, k.column));
      }
      return new Cursor(values);
    }
    Cursor k = known.get(w.rnd.nextInt(known.size()));
    if (kind == 1) {
      List<Object> values = new ArrayList<>(k.values());
      int i = w.rnd.nextInt(values.size());
      values.set(i, randomValue(w, total.get(i).column));
      return new Cursor(values);
    }
    return k;
  }

  private static Object randomValue(World w, int column) {
    Random rnd = w.rnd;
    return switch (column) {
      case 0 -> rnd.nextInt(20) == 0 ? null : (Object) (long) (rnd.nextInt(w.maxId + 4) - 1);
      // now and then a fraction between two INT values
      case 1 -> rnd.nextInt(4) == 0 ? null : rnd.nextInt(8) == 0 ? (Object) (rnd.nextInt(5) - 0.5)
          : (Object) (long) (rnd.nextInt(7) - 1);
      case 2 -> rnd.nextInt(4) == 0 ? null : CURSOR_STRINGS[rnd.nextInt(CURSOR_STRINGS.length)];
      default -> rnd.nextInt(4) == 0 ? null : (Object) CURSOR_DOUBLES[rnd.nextInt(CURSOR_DOUBLES.length)];
    };
  }

  /** Mostly none; with a limit, now and then an offset of 1 to 3 (also applied after the cursor). */
  private static long randomOffset(World w, Long limit) {
    return limit != null && w.rnd.nextInt(5) == 0 ? 1 + w.rnd.nextInt(3) : 0;
  }

  /** No limit (null), or a limit from 0 to a bit beyond half the table. */
  private static Long randomLimit(World w) {
    return w.rnd.nextInt(4) == 0 ? null : (Long) (long) w.rnd.nextInt(w.maxId / 2 + 3);
  }

  // ---------------------------------------------------------------------------------------------
  // The SQL side.

  /**
   * {@code SELECT id, a, b, c FROM t [WHERE <strictly after cursor>] ORDER BY <keys>, id [LIMIT
   * k [OFFSET m]]}.
   */
  static String sql(List<Key> order, Cursor cursor, Long limit, long offset) {
    List<Key> total = total(order);
    StringBuilder sb = new StringBuilder("SELECT ");
    for (int i = 0; i < COLUMNS.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(QuerySqlRenderer.quote(COLUMNS[i]));
    }
    sb.append(" FROM ").append(QuerySqlRenderer.quote("t"));
    if (cursor != null) {
      sb.append(" WHERE ").append(strictlyAfter(total, cursor.values()));
    }
    sb.append(" ORDER BY ");
    for (int i = 0; i < total.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(total.get(i).sql());
    }
    if (limit != null) {
      sb.append(" LIMIT ").append(limit);
      if (offset > 0) {
        sb.append(" OFFSET ").append(offset);
      }
    } else if (offset > 0) {
      throw new IllegalArgumentException("an offset needs a limit here");
    }
    return sb.toString();
  }

  /**
   * The keyset predicate, lexicographic: OR over i of (components before i equal AND component i
   * beyond the cursor's), where "beyond" follows the component's direction and NULL placement and
   * NULL equals only NULL.
   */
  static String strictlyAfter(List<Key> total, List<Object> values) {
    List<String> ors = new ArrayList<>();
    for (int i = 0; i < total.size(); i++) {
      String beyond = beyond(total.get(i), values.get(i));
      if (beyond == null) {
        continue; // nothing sorts beyond this component's value
      }
      List<String> ands = new ArrayList<>();
      for (int j = 0; j < i; j++) {
        ands.add(same(total.get(j), values.get(j)));
      }
      ands.add(beyond);
      ors.add("(" + String.join(" AND ", ands) + ")");
    }
    return ors.isEmpty() ? "(1 = 0)" : "(" + String.join(" OR ", ors) + ")";
  }

  private static String same(Key k, Object v) {
    String c = QuerySqlRenderer.quote(COLUMNS[k.column]);
    return v == null ? c + " IS NULL" : "(" + c + " IS NOT NULL AND " + c + " = " + literal(v) + ")";
  }

  /** Rows whose component sorts strictly after {@code v}; null when none can. */
  private static String beyond(Key k, Object v) {
    String c = QuerySqlRenderer.quote(COLUMNS[k.column]);
    if (v == null) {
      // NULLs first: every non-NULL value follows; NULLs last: nothing follows a NULL.
      return k.nullsFirst ? c + " IS NOT NULL" : null;
    }
    String cmp = c + (k.descending ? " < " : " > ") + literal(v);
    return k.nullsFirst ? "(" + c + " IS NOT NULL AND " + cmp + ")" : "(" + cmp + " OR " + c + " IS NULL)";
  }

  private static String literal(Object v) {
    if (v instanceof String s) {
      return "'" + s.replace("'", "''") + "'";
    }
    if (v instanceof Double d) {
      return BigDecimal.valueOf(d).toPlainString();
    }
    if (v instanceof Long l) {
      return Long.toString(l);
    }
    throw new IllegalArgumentException("no literal for " + v);
  }

  /** {@code actual} equals the SQL result in SQLite and in H2, in order. */
  private static void checkAgainstSql(World w, List<Key> order, Cursor cursor, Long limit, List<Row> actual,
      String what) {
    checkAgainstSql(w, order, cursor, limit, 0, actual, what);
  }

  private static void checkAgainstSql(World w, List<Key> order, Cursor cursor, Long limit, long offset,
      List<Row> actual, String what) {
    String text = sql(order, cursor, limit, offset);
    for (SqlDatabase db : List.of(sqlite, h2)) {
      List<Row> expected;
      try {
        expected = db.query(text, SCHEMA);
      } catch (SQLException e) {
        throw new AssertionError(w.context(db.dialect + " failed on " + text + ": " + e.getMessage()), e);
      }
      assertThat(actual)
          .as(w.context(what + ": " + db.dialect + "\n  order " + order + "\n  cursor " + cursor + " limit " + limit + " offset " + offset
              + "\n  SQL " + text + "\n  table " + w.rows.values()))
          .isEqualTo(expected);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Folding window deltas.

  /** Applies {@code b} to {@code list} as the convention says, checking each step on the way. */
  private static void fold(List<Row> list, WindowBatch b, List<Key> order, String ctx) {
    for (WindowDelta d : b.deltas()) {
      String at = ctx + ": delta " + d + " on " + list;
      assertThat(d.version()).as(at + " (version)").isLessThanOrEqualTo(b.txId());
      if (d.op() != WindowDelta.Op.RESET) {
        assertThat(d.key()).as(at + " (key)").isEqualTo(Row.of(d.row().get(0)));
        assertThat(d.cursor()).as(at + " (cursor)").isEqualTo(cursorOf(d.row(), order));
      }
      switch (d.op()) {
        case RESET -> list.clear();
        case ENTER -> {
          assertThat(d.newIndex()).as(at).isBetween(0, list.size());
          list.add(d.newIndex(), d.row());
        }
        case LEAVE -> {
          assertThat(d.oldIndex()).as(at).isBetween(0, list.size() - 1);
          assertThat(list.get(d.oldIndex())).as(at + " (leaving row)").isEqualTo(d.row());
          list.remove(d.oldIndex());
        }
        case MOVE -> {
          assertThat(d.oldIndex()).as(at).isBetween(0, list.size() - 1);
          assertThat(list.get(d.oldIndex())).as(at + " (old row)").isEqualTo(d.old());
          list.remove(d.oldIndex());
          assertThat(d.newIndex()).as(at).isBetween(0, list.size());
          list.add(d.newIndex(), d.row());
        }
        case UPDATE -> {
          assertThat(d.oldIndex()).as(at).isBetween(0, list.size() - 1);
          assertThat(d.newIndex()).as(at).isEqualTo(d.oldIndex());
          assertThat(list.get(d.oldIndex())).as(at + " (old row)").isEqualTo(d.old());
          list.set(d.oldIndex(), d.row());
        }
        default -> fail(at + ": unknown op");
      }
    }
  }
}
