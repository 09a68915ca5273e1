package dev.rivulet.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * {@link StatementCache#cached}'s shortcut: the statement found last is found again by the
 * identity of its SQL text without the map (the path is taken, and it answers what the map
 * answers), while an equal text of another instance goes through the map to the same statement,
 * and a statement closed past the capacity is not handed out by the shortcut.
 */
class StatementCacheTest {
  @Test
  void theLastStatementIsFoundByIdentityAndNeverOnceClosed() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
      SqlRows.exec(c, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
      StatementCache cache = new StatementCache(c, 1);
      String a = "SELECT id FROM t WHERE id = ?";
      assertThat(cache.cached(a)).isNull();
      StatementCache.Prepared pa = cache.prepare(a);
      assertThat(cache.cached(a)).isSameAs(pa); // through the map, remembered
      assertThat(cache.lastHits()).isZero();
      assertThat(cache.cached(a)).isSameAs(pa); // the shortcut
      assertThat(cache.lastHits()).isEqualTo(1);
      String equalText = new String(a.toCharArray());
      assertThat(cache.cached(equalText)).isSameAs(pa); // another instance: the map, same statement
      assertThat(cache.lastHits()).isEqualTo(1);

      StatementCache.Prepared pb = cache.prepare("SELECT id FROM t"); // evicts and closes a's
      assertThat(pa.statement().isClosed()).isTrue();
      assertThat(cache.cached(a)).isNull();
      assertThat(cache.cached(equalText)).isNull();
      assertThat(cache.lastHits()).isEqualTo(1);
      assertThat(cache.cached("SELECT id FROM t")).isSameAs(pb);
      cache.close();
      assertThat(pb.statement().isClosed()).isTrue();
    }
  }
}
