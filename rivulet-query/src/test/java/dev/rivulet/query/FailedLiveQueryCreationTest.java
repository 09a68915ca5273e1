package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.not;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A live query whose creation fails (its first run throws: here an ANY column's value is no
 * boolean under NOT) leaves nothing behind: no demand of a lazy collection it reads stays
 * registered, so a later transaction loads no rows for a query that does not exist and the lazy
 * collection stays empty and idle.
 */
class FailedLiveQueryCreationTest {
  private static final Schema LAZY = Schema.parse("id INT NOT NULL, v INT");

  @Test
  void aFailedCreationLeavesNoDemandOfALazyCollection() {
    Rivulet db = Rivulet.create();
    MemoryLazySource source = new MemoryLazySource(LAZY, List.of("id"));
    source.put(Row.of(1, 10));
    source.put(Row.of(2, 20));
    LazyCollection lazy = db.lazyCollection("lazy", LAZY, List.of("id"), source);
    SourceCollection eager = db.collection("eager", Schema.parse("id INT NOT NULL, flag ANY"), List.of("id"));
    eager.syncWrite(Row.of(1, 5)); // not a boolean: NOT fails on it
    assertThatThrownBy(() -> db.liveQuery("q", Query.from("e", eager).where(not(col("e.flag")))
        .innerJoin("l", lazy, Query.on("e.id", "l.id")))).isInstanceOf(QueryException.class)
        .hasMessageContaining("expected a boolean");
    eager.syncWrite(Row.of(2, true)); // a later transaction runs the demand plane
    assertThat(lazy.size()).as("rows loaded for a query that was never created").isZero();
    assertThat(db.collectionCount()).isEqualTo(2);
    // A query that reads the lazy collection, then goes: its rows go with it (none are held for q).
    LiveQuery ok = db.liveQuery("ok", Query.from("l", lazy));
    assertThat(ok.rows()).hasSize(2);
    ok.close();
    assertThat(lazy.size()).as("rows held after the last reader closed").isZero();
  }

  @Test
  void withoutAFailedCreationTheLastReaderReleasesTheRows() {
    Rivulet db = Rivulet.create();
    MemoryLazySource source = new MemoryLazySource(LAZY, List.of("id"));
    source.put(Row.of(1, 10));
    LazyCollection lazy = db.lazyCollection("lazy", LAZY, List.of("id"), source);
    LiveQuery ok = db.liveQuery("ok", Query.from("l", lazy));
    assertThat(ok.rows()).hasSize(1);
    ok.close();
    assertThat(lazy.size()).isZero();
  }
}
