package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Build-time wiring errors and input validation: clear messages, nothing half-applied. */
class WiringTest {
  private static final Schema ORDERS = Schema.parse("id INT NOT NULL, customer STRING NOT NULL, total INT");
  private static final Schema CUSTOMERS = Schema.parse("cid INT NOT NULL, name STRING");

  @Test
  void unknownJoinColumnFailsNamingOperatorAndColumn() {
    GraphBuilder b = Graph.builder();
    Stream orders = b.input("orders", ORDERS);
    Stream customers = b.input("customers", CUSTOMERS);
    assertThatThrownBy(() -> orders.join(customers, JoinType.LEFT, "cust_id", "cid"))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("left join on input:orders")
        .hasMessageContaining("'cust_id'")
        .hasMessageContaining("known columns: [id, customer, total]");
    assertThatThrownBy(() -> orders.join(customers, JoinType.INNER, "id", "customer_id"))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("inner join on input:orders with input:customers")
        .hasMessageContaining("'customer_id'")
        .hasMessageContaining("[cid, name]");
    assertThatThrownBy(() -> orders.join(customers, JoinType.INNER, List.of("id", "total"), List.of("cid")))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("same number");
    assertThatThrownBy(() -> orders.join(customers, JoinType.INNER, List.of(), List.of()))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("at least one");
  }

  @Test
  void keyTypeMismatchFailsNamingBothColumns() {
    GraphBuilder b = Graph.builder();
    Stream orders = b.input("orders", ORDERS);
    Stream customers = b.input("customers", CUSTOMERS);
    assertThatThrownBy(() -> orders.join(customers, JoinType.INNER, "customer", "cid"))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("input:orders")
        .hasMessageContaining("input:customers")
        .hasMessageContaining("key type mismatch")
        .hasMessageContaining("customer is STRING")
        .hasMessageContaining("cid is INT");
    // Numeric types are compatible with one another.
    Stream decimals = b.input("d", Schema.parse("x DECIMAL"));
    assertThat(orders.join(decimals, JoinType.INNER, "id", "x").schema().width()).isEqualTo(4);
  }

  @Test
  void unknownGroupByColumnFailsNamingOperatorAndColumn() {
    GraphBuilder b = Graph.builder();
    Stream orders = b.input("orders", ORDERS).named("orderStream");
    assertThatThrownBy(() -> orders.groupBy(List.of("region"), Aggregate.countRows("n")))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("group by on orderStream")
        .hasMessageContaining("'region'");
    assertThatThrownBy(() -> orders.groupBy(List.of("customer"), Aggregate.sum("amount", "s")))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("group by on orderStream")
        .hasMessageContaining("'amount'");
  }

  @Test
  void unknownTopKColumnFailsNamingOperatorAndColumn() {
    GraphBuilder b = Graph.builder();
    Stream orders = b.input("orders", ORDERS);
    assertThatThrownBy(() -> orders.topK(List.of(SortKey.desc("created_at")), 0, 10))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("top-k on input:orders")
        .hasMessageContaining("'created_at'");
    assertThatThrownBy(() -> orders.topK(List.of("tenant"), List.of(SortKey.asc("id")), 0, 10))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("top-k on input:orders")
        .hasMessageContaining("'tenant'");
    assertThatThrownBy(() -> orders.topK(List.of(SortKey.asc("id")), -1, 10))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("must not be negative");
    assertThatThrownBy(() -> orders.topK(List.of(SortKey.asc("id")), 0, -5))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("limit -5");
  }

  @Test
  void unknownReduceColumnFailsNamingOperatorAndColumn() {
    GraphBuilder b = Graph.builder();
    Stream orders = b.input("orders", ORDERS);
    assertThatThrownBy(() -> orders.reduce(List.of("nope"), ORDERS, (k, g) -> g))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("reduce on input:orders")
        .hasMessageContaining("'nope'");
  }

  @Test
  void forwardStreamNeverBoundFails() {
    GraphBuilder b = Graph.builder();
    Stream later = b.forward("later", ORDERS);
    b.output("out", b.input("orders", ORDERS).concat(later));
    assertThatThrownBy(b::build)
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("forward:later")
        .hasMessageContaining("never bound");
  }

  @Test
  void forwardStreamBoundLaterWorks() {
    GraphBuilder b = Graph.builder();
    Stream later = b.forward("big", ORDERS);
    b.output("out", later);
    Stream in = b.input("orders", ORDERS);
    b.bind(later, in.filter(r -> !r.isNull(2) && r.getLong(2) > 100));
    Graph g = b.build();
    g.input("orders").insert(Row.of(1, "a", 50)).insert(Row.of(2, "b", 500));
    g.run();
    assertThat(g.output("out").delta().toMap()).containsOnly(Map.entry(Row.of(2, "b", 500), 1L));
  }

  @Test
  void cycleThroughAForwardFailsNamingTheOperators() {
    GraphBuilder b = Graph.builder();
    Stream loop = b.forward("loop", ORDERS);
    Stream in = b.input("orders", ORDERS);
    Stream both = in.concat(loop).named("merge");
    Stream next = both.map(ORDERS, r -> r).named("step");
    b.bind(loop, next);
    b.output("out", next);
    assertThatThrownBy(b::build)
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("cycle")
        .hasMessageContaining("forward:loop")
        .hasMessageContaining("merge")
        .hasMessageContaining("step")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("input:orders"));
  }

  @Test
  void bindChecksItsArguments() {
    GraphBuilder b = Graph.builder();
    Stream f = b.forward("f", ORDERS);
    Stream in = b.input("orders", ORDERS);
    Stream customers = b.input("customers", CUSTOMERS);
    assertThatThrownBy(() -> b.bind(in, customers))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("input:orders is not a forward stream");
    assertThatThrownBy(() -> b.bind(f, customers))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("forward:f")
        .hasMessageContaining("input:customers");
    b.bind(f, in);
    assertThatThrownBy(() -> b.bind(f, in))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("already bound");
  }

  @Test
  void builderRulesAndNames() {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("orders", ORDERS);
    assertThatThrownBy(() -> b.input("orders", ORDERS)).isInstanceOf(WiringException.class)
        .hasMessageContaining("declared twice");
    assertThatThrownBy(b::build).isInstanceOf(WiringException.class).hasMessageContaining("no output");
    b.output("out", in);
    assertThatThrownBy(() -> b.output("out", in)).isInstanceOf(WiringException.class)
        .hasMessageContaining("'out' is declared twice");
    GraphBuilder other = Graph.builder();
    Stream foreign = other.input("x", ORDERS);
    assertThatThrownBy(() -> in.concat(foreign)).isInstanceOf(WiringException.class)
        .hasMessageContaining("another graph builder");
    Graph g = b.build();
    assertThatThrownBy(() -> b.input("late", ORDERS)).isInstanceOf(WiringException.class)
        .hasMessageContaining("already built");
    assertThatThrownBy(() -> g.input("nope")).isInstanceOf(WiringException.class)
        .hasMessageContaining("unknown input 'nope'").hasMessageContaining("[orders]");
    assertThatThrownBy(() -> g.output("nope")).isInstanceOf(WiringException.class)
        .hasMessageContaining("unknown output 'nope'").hasMessageContaining("[out]");
  }

  // ---- input validation --------------------------------------------------------------------

  private static Graph passThrough() {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("orders", ORDERS));
    return b.build();
  }

  @Test
  void wrongTypeIsRejectedNamingInputAndColumn() {
    Graph g = passThrough();
    assertThatThrownBy(() -> g.input("orders").insert(Row.of(1, "a", "lots")))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("input 'orders'")
        .hasMessageContaining("column 'total' expects INT")
        .hasMessageContaining("'lots'");
    assertThatThrownBy(() -> g.input("orders").insert(Row.of(1, "a", 1.5)))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("column 'total' expects INT")
        .hasMessageContaining("DOUBLE");
    // An integral double is an INT after canonicalisation.
    g.input("orders").insert(Row.of(1, "a", 2.0));
    g.run();
    assertThat(g.output("out").delta().toMap()).containsOnly(Map.entry(Row.of(1, "a", 2), 1L));
  }

  @Test
  void notNullViolationIsRejectedNamingInputAndColumn() {
    Graph g = passThrough();
    assertThatThrownBy(() -> g.input("orders").insert(Row.of(1, null, 5)))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("input 'orders'")
        .hasMessageContaining("column 'customer' is NOT NULL");
  }

  @Test
  void wrongWidthIsRejectedNamingInputAndColumns() {
    Graph g = passThrough();
    assertThatThrownBy(() -> g.input("orders").insert(Row.of(1, "a")))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("input 'orders'")
        .hasMessageContaining("2 values but the schema has 3 columns")
        .hasMessageContaining("total INT");
  }

  @Test
  void aRejectedBatchQueuesNothing() {
    Graph g = passThrough();
    Row good = Row.of(1, "a", 10);
    Row alsoGood = Row.of(2, "b", 20);
    ZSet batch = ZSet.builder().insert(good).insert(alsoGood).insert(Row.of(3, null, 30)).build();
    assertThatThrownBy(() -> g.input("orders").send(batch))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("'customer'");
    // An update whose after-image is bad queues neither half.
    assertThatThrownBy(() -> g.input("orders").update(good, Row.of(1, "a", "x")))
        .isInstanceOf(SchemaException.class);
    g.run();
    assertThat(g.output("out").delta().isEmpty()).as("nothing of the rejected batches ran").isTrue();
    assertThat(g.output("out").deltaSize()).isZero();

    // The graph is healthy: the next run carries exactly what was sent after the errors.
    g.input("orders").insert(alsoGood);
    g.run();
    assertThat(g.output("out").delta().toMap()).containsOnly(Map.entry(alsoGood, 1L));
    assertThat(g.runs()).isEqualTo(2);
  }

  @Test
  void rejectedInputDoesNotFailAStatefulGraph() {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("orders", ORDERS).groupBy(List.of(), Aggregate.sum("total", "s")));
    Graph g = b.build();
    g.input("orders").insert(Row.of(1, "a", 10));
    g.run();
    assertThatThrownBy(() -> g.input("orders").send(ZSet.builder().insert(Row.of(2, "b", 5)).insert(Row.of(3, "c", true)).build()))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("column 'total' expects INT");
    g.input("orders").insert(Row.of(4, "d", 1));
    g.run();
    assertThat(g.output("out").delta().toMap()).containsOnly(Map.entry(Row.of(10), -1L), Map.entry(Row.of(11), 1L));
  }
}
