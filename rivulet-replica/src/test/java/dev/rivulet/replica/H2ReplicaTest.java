package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.query.ChangeBatch;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.SubscribeOptions;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What is particular to H2: per-table triggers, its column types, the triggers' lifetime. */
class H2ReplicaTest {
  private static String url(String name) {
    return "jdbc:h2:mem:h2replica_" + name + ";DATABASE_TO_LOWER=TRUE";
  }

  private static Connection create(String url) throws SQLException {
    Connection c = DriverManager.getConnection(url);
    SqlRows.exec(c,
        "CREATE TABLE items (id INTEGER PRIMARY KEY, price DECIMAL(10, 2), ok BOOLEAN, d DATE,"
            + " ts TIMESTAMP, data VARBINARY, note CLOB, score DOUBLE PRECISION, n BIGINT)",
        "CREATE TABLE log (msg VARCHAR)",
        "INSERT INTO items VALUES (1, 9.99, TRUE, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05',"
            + " X'0102', 'long text', 1.5, 10000000000)");
    return c;
  }

  private static List<Row> sql(Connection c, String query) throws SQLException {
    return SqlRows.read(c, query);
  }

  private static int triggers(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(DISTINCT TRIGGER_NAME) FROM INFORMATION_SCHEMA.TRIGGERS")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  void h2ColumnTypesAreMirroredAndKeptCurrent() throws SQLException {
    try (Connection keep = create(url("types")); SqliteReplica replica = H2Replica.open(url("types"))) {
      LiveQuery all = replica.liveQuery("all", Query.from("i", replica.table("items")).orderBy(Query.asc(col("i.id"))));
      assertThat(all.rows()).isEqualTo(sql(keep, "SELECT * FROM items ORDER BY id"));
      replica.execute("INSERT INTO items VALUES (2, ?, FALSE, NULL, NULL, X'ff', 'x', -0.25, 7)", new BigDecimal("1.50"));
      replica.execute("UPDATE items SET note = note || '!', price = price * 2, ok = NOT ok");
      assertThat(all.rows()).hasSize(2).isEqualTo(sql(keep, "SELECT * FROM items ORDER BY id"));
      assertThat(replica.table("items").schema().columns()).extracting(c -> c.type())
          .containsExactly(ColumnType.INT, ColumnType.DECIMAL, ColumnType.BOOL, ColumnType.DATE, ColumnType.TIMESTAMP,
              ColumnType.BYTES, ColumnType.STRING, ColumnType.DOUBLE, ColumnType.INT);
      assertThatThrownBy(() -> replica.table("log")).hasMessageContaining("table 'log' has no primary key");
    }
  }

  @Test
  void writesFromOtherConnectionsAreNotCapturedAndCloseDropsTheTriggers() throws SQLException {
    try (Connection keep = create(url("other"))) {
      try (SqliteReplica replica = H2Replica.open(url("other"))) {
        assertThat(triggers(keep)).as("one trigger per mirrored table").isEqualTo(1);
        LiveQuery ids = replica.liveQuery("ids", Query.from("i", replica.table("items"))
            .select(Query.as("id", col("i.id"))).orderBy(Query.asc(col("i.id"))));
        List<ChangeBatch> batches = new ArrayList<>();
        ids.subscribeChanges(SubscribeOptions.sync(), batches::add);
        int before = batches.size();
        SqlRows.exec(keep, "INSERT INTO items (id) VALUES (5)");
        assertThat(batches).as("another connection's write publishes nothing").hasSize(before);
        assertThat(ids.rows()).containsExactly(Row.of(1));
        replica.execute("INSERT INTO items (id) VALUES (6)");
        assertThat(batches).hasSize(before + 1);
        assertThat(ids.rows()).as("only the replica's own write").containsExactly(Row.of(1), Row.of(6));
      }
      assertThat(triggers(keep)).as("close drops the replica's triggers").isZero();
      try (Statement st = keep.createStatement()) {
        st.execute("INSERT INTO items (id) VALUES (7)"); // no trigger left to fail or capture
      }
    }
  }
}
