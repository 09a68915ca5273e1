package dev.rivulet.query;

import static dev.rivulet.query.Exprs.avg;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.div;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.mul;
import static dev.rivulet.query.Exprs.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SchemaException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Values handed to users have their column's Java type, on every path a row leaves by: a DOUBLE
 * column holding 2.0 (canonically the integer 2) comes back as a {@code Double}, a DECIMAL as a
 * {@code BigDecimal}, from source collections and live queries, through rows(), get(), entries(),
 * keyed events, change batches, a change sink, window steps and window snapshots. Typed rows still
 * equal {@code Row.of} of the same values and can be written back.
 */
class TypedValuesTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection items = db.collection("items",
      Schema.parse("id INT NOT NULL, price DOUBLE, amount DECIMAL, qty INT, name STRING"), List.of("id"));

  private void load() {
    items.beginSync()
        .write(Row.of(1, 2.0, new BigDecimal("2.50"), 3, "a"))
        .write(Row.of(2, 1.5, 4, 5, "b"))
        .markReady()
        .commit();
  }

  /** Asserts the Java classes of a row of items: INT Long, DOUBLE Double, DECIMAL BigDecimal. */
  private static void itemRow(Row r) {
    assertThat(r.get(0)).isInstanceOf(Long.class);
    assertThat(r.get(1)).isInstanceOf(Double.class);
    assertThat(r.get(2)).isInstanceOf(BigDecimal.class);
    assertThat(r.get(3)).isInstanceOf(Long.class);
    assertThat(r.get(4)).isInstanceOf(String.class);
  }

  @Test
  void sourceCollectionsHandOutTypedValues() {
    load();
    Row one = items.get(Row.of(1)).orElseThrow();
    assertThat(one.get(1)).isEqualTo(2.0);
    assertThat((BigDecimal) one.get(2)).isEqualByComparingTo("2.5");
    assertThat((Double) one.get(1) / 4).isEqualTo(0.5); // the cast that used to throw
    assertThat(one).isEqualTo(Row.of(1, 2, 2.5, 3, "a")); // equality stays canonical
    assertThat(one.toList()).containsExactly(1L, 2.0, new BigDecimal("2.5"), 3L, "a");
    items.rows().forEach(TypedValuesTest::itemRow);
    items.entries().forEach(e -> itemRow(e.row()));
    assertThat(items.rows().stream().filter(r -> r.get(0).equals(2L)).findFirst().orElseThrow().get(2))
        .isEqualTo(new BigDecimal("4"));
  }

  @Test
  void everyFaceHandsOutTypedValues() {
    load();
    List<ChangeEvent> events = new ArrayList<>();
    items.subscribe(SubscribeOptions.sync().withInitialState(), b -> events.addAll(b.events()));
    List<ChangeBatch> batches = new ArrayList<>();
    items.subscribeChanges(SubscribeOptions.sync(), batches::add);
    ChangeSink sink = items.changeSink(100);
    sink.hydrate().changes().forEach(c -> itemRow(c.row()));
    items.beginSync().write(Row.of(1, 3.0, 7, 3, "a")).write(Row.of(3, 8.0, 1, 1, "c")).commit();
    assertThat(events).hasSize(4);
    for (ChangeEvent e : events) {
      itemRow(e.value());
      if (e.previous() != null) {
        itemRow(e.previous());
        assertThat(e.previous().get(1)).isEqualTo(2.0);
      }
    }
    assertThat(batches).hasSize(2);
    for (ChangeBatch b : batches) {
      for (Change c : b.changes()) {
        itemRow(c.row());
        if (c instanceof Change.Edit edit) {
          itemRow(edit.old());
        }
      }
    }
    List<ChangeBatch> taken = sink.take();
    assertThat(taken).isNotEmpty();
    taken.forEach(b -> b.changes().forEach(c -> itemRow(c.row())));
  }

  @Test
  void liveQueriesHandOutTypedValues() {
    load();
    LiveQuery q = db.liveQuery("q", Query.from("i", items)
        .select(Query.as("id", col("i.id")), Query.as("half", div(col("i.qty"), lit(2.0))),
            Query.as("cost", mul(col("i.price"), col("i.qty"))), Query.as("amount", col("i.amount")))
        .orderBy(Query.asc(col("i.id"))));
    List<WindowBatch> windows = new ArrayList<>();
    LiveWindow w = q.subscribeWindow(SubscribeOptions.sync(), windows::add);
    List<ChangeEvent> events = new ArrayList<>();
    q.subscribe(events::addAll);
    assertThat(q.rows()).containsExactly(Row.of(1, 1.5, 6, 2.5), Row.of(2, 2.5, 7.5, 4));
    Row first = q.rows().get(0);
    assertThat(first.get(2)).isEqualTo(6.0);
    assertThat(first.get(3)).isEqualTo(new BigDecimal("2.5"));
    items.beginSync().write(Row.of(2, 1.0, 4, 4, "b")).commit();
    Row changed = q.get(Row.of(2)).orElseThrow();
    assertThat(changed.get(1)).isEqualTo(2.0); // 4 / 2.0, canonically the integer 2
    assertThat(changed.get(2)).isEqualTo(4.0);
    assertThat(events).singleElement().satisfies(e -> {
      assertThat(e.value().get(1)).isEqualTo(2.0);
      assertThat(e.previous().get(1)).isEqualTo(2.5);
    });
    for (WindowBatch b : windows) {
      for (WindowDelta d : b.deltas()) {
        if (d.row() != null) {
          assertThat(d.row().get(1)).isInstanceOf(Double.class);
          assertThat(d.row().get(3)).isInstanceOf(BigDecimal.class);
        }
      }
    }
    w.snapshot().rows().forEach(e -> assertThat(e.row().get(2)).isInstanceOf(Double.class));
    q.entries().forEach(e -> assertThat(e.row().get(2)).isInstanceOf(Double.class));
  }

  @Test
  void aggregatesHaveTheirSqlTypes() {
    load();
    LiveQuery q = db.liveQuery("agg", Query.from("i", items)
        .select(Query.as("n", count()), Query.as("qty", sum(col("i.qty"))), Query.as("avg", avg(col("i.qty"))),
            Query.as("price", sum(col("i.price")))));
    Row r = q.rows().get(0);
    assertThat(r).isEqualTo(Row.of(2, 8, 4, 3.5));
    assertThat(r.get(0)).isEqualTo(2L);
    assertThat(r.get(1)).isEqualTo(new BigDecimal("8")); // sum of INT is DECIMAL, as SQL's SUM(BIGINT)
    assertThat(r.get(2)).isEqualTo(4.0); // avg is DOUBLE even when whole
    assertThat(r.get(3)).isEqualTo(3.5);
  }

  @Test
  void integersBeyond64BitsComeBackAsBigIntegers() {
    SourceCollection big = db.collection("big", Schema.parse("id INT NOT NULL, x INT"), List.of("id"));
    big.beginSync().write(Row.of(1, Long.MAX_VALUE)).markReady().commit();
    LiveQuery q = db.liveQuery("sum", Query.from("b", big)
        .select(Query.as("y", Exprs.add(col("b.x"), lit(1))), Query.as("z", Exprs.add(col("b.x"), lit(2)))));
    Row r = q.rows().get(0);
    assertThat(r.get(0)).isEqualTo(BigInteger.ONE.shiftLeft(63));
    assertThat(r.get(1)).isEqualTo(BigInteger.ONE.shiftLeft(63).add(BigInteger.ONE));
    assertThat(big.rows().get(0).get(1)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void typedRowsAndKeysCanBeWrittenBackAndLookedUp() {
    SourceCollection byPrice = db.collection("byPrice", Schema.parse("price DOUBLE NOT NULL, label STRING"),
        List.of("price"));
    byPrice.beginSync().write(Row.of(2.0, "two")).write(Row.of(2.5, "two and a half")).markReady().commit();
    KeyedRow e = byPrice.entries().stream().filter(k -> k.row().get(1).equals("two")).findFirst().orElseThrow();
    assertThat(e.key().get(0)).isEqualTo(2.0); // keys are typed too
    assertThat(byPrice.get(e.key())).contains(Row.of(2, "two"));
    Row typed = e.row();
    assertThat(typed.isTyped()).isTrue();
    Transaction tx = db.transaction();
    tx.update(byPrice, typed.with(1, "deux")).delete(byPrice, e.key()).apply();
    assertThat(byPrice.get(Row.of(2))).isEmpty();
    tx.rollback();
    byPrice.beginSync().write(typed).commit(); // the same row, written back as read
    assertThat(byPrice.get(Row.of(2.0))).contains(Row.of(2, "two"));
    byPrice.beginSync().delete(e.key()).commit();
    assertThat(byPrice.rows()).containsExactly(Row.of(2.5, "two and a half"));
  }

  @Test
  void aDoubleColumnRefusesIntegersNoDoubleHolds() {
    assertThatThrownBy(() -> items.beginSync().write(Row.of(9, (1L << 53) + 1, null, null, null)))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("collection 'items': column 'price' expects DOUBLE")
        .hasMessageContaining("9007199254740993 (INT, which no double holds exactly)");
    items.beginSync().write(Row.of(9, 1L << 53, null, null, null)).markReady().commit();
    assertThat(items.get(Row.of(9)).orElseThrow().get(1)).isEqualTo(0x1p53);
  }
}
