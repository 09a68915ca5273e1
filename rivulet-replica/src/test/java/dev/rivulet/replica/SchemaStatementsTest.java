package dev.rivulet.replica;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which statements the replica treats as schema changes: by first keyword, after comments. */
class SchemaStatementsTest {
  @Test
  void schemaChangesAreFoundByTheirFirstKeywordAfterComments() {
    assertThat(SchemaStatements.changesSchema("create table t (id int primary key)")).isTrue();
    assertThat(SchemaStatements.changesSchema("  -- migrate\n/* v2 */ ALTER TABLE t ADD x INT")).isTrue();
    assertThat(SchemaStatements.changesSchema("\nDrop Index i")).isTrue();
    assertThat(SchemaStatements.changesSchema("TRUNCATE TABLE t")).isTrue();
    assertThat(SchemaStatements.changesSchema("INSERT INTO t VALUES (1) -- create")).isFalse();
    assertThat(SchemaStatements.changesSchema("UPDATE created SET alter = 1")).isFalse();
    assertThat(SchemaStatements.changesSchema("WITH x AS (SELECT 1) DELETE FROM t")).isFalse();
    assertThat(SchemaStatements.changesSchema("/* unterminated")).isFalse();
    assertThat(SchemaStatements.alters("/**/alter table t rename to u")).isTrue();
    assertThat(SchemaStatements.alters("CREATE TABLE alter_log (id INT)")).isFalse();
  }
}
