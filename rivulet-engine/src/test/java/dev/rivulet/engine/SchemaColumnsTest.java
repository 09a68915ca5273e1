package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Schemas, columns and sort keys as values: lookup, concatenation, equality, their text. */
class SchemaColumnsTest {
  @Test
  void schemaOfColumnsKnowsItsNames() {
    Schema s = Schema.of(Column.notNull("id", ColumnType.INT), Column.of("title", ColumnType.STRING));
    assertThat(s.has("id")).isTrue();
    assertThat(s.has("title")).isTrue();
    assertThat(s.has("ID")).isFalse();
    assertThat(s.indexesOf(List.of("title", "id"))).containsExactly(1, 0);
    assertThat(s).isEqualTo(Schema.parse("id INT NOT NULL, title STRING"));
    assertThat(s.toString()).isEqualTo("(id INT NOT NULL, title STRING)");
    assertThatThrownBy(() -> Schema.of(Column.of("a", ColumnType.INT), Column.of("a", ColumnType.STRING)))
        .isInstanceOf(SchemaException.class).hasMessageContaining("duplicate column 'a'");
  }

  @Test
  void equalSchemasHashAlikeAndDifferentOnesApart() {
    Set<Integer> hashes = new HashSet<>();
    List<String> specs = List.of("a INT", "a STRING", "b INT", "a INT NOT NULL", "a INT, b INT");
    for (String spec : specs) {
      assertThat(Schema.parse(spec).hashCode()).isEqualTo(Schema.parse(spec).hashCode());
      hashes.add(Schema.parse(spec).hashCode());
    }
    assertThat(hashes).as("hashes of distinct schemas").hasSize(specs.size());
  }

  @Test
  void concatRenamesRepeatedNamesWithAPrefixThenACounter() {
    Schema left = Schema.parse("id INT NOT NULL, r_id INT, r_id_2 INT");
    Schema right = Schema.parse("id INT NOT NULL, x STRING");
    Schema joined = left.concat(right, "r_", true);
    assertThat(joined.names()).containsExactly("id", "r_id", "r_id_2", "r_id_3", "x");
    assertThat(joined.column(3).nullable()).as("the other side made nullable").isTrue();
    assertThat(left.concat(right, "r_", false).column(3)).isEqualTo(Column.notNull("r_id_3", ColumnType.INT));
    assertThat(left.concat(Schema.parse("id INT, x STRING"), "q_", false).names())
        .containsExactly("id", "r_id", "r_id_2", "q_id", "x");
  }

  @Test
  void columnsAndSortKeysRenderAsSqlWouldSayThem() {
    assertThat(Column.notNull("id", ColumnType.INT)).hasToString("id INT NOT NULL");
    assertThat(Column.of("t", ColumnType.STRING)).hasToString("t STRING");
    assertThat(Column.notNull("id", ColumnType.INT).nullable()).isFalse();
    assertThat(SortKey.asc("a")).hasToString("a ASC NULLS LAST");
    assertThat(SortKey.desc("a")).hasToString("a DESC NULLS FIRST");
    assertThat(SortKey.asc("a").withNullsFirst()).hasToString("a ASC NULLS FIRST");
    assertThat(SortKey.desc("a").withNullsLast()).hasToString("a DESC NULLS LAST");
  }

  @Test
  void bytesAreValuesByContent() {
    Bytes a = Bytes.of(new byte[] {1, 2, (byte) 0xff});
    assertThat(a.length()).isEqualTo(3);
    assertThat(a).isEqualTo(Bytes.of(new byte[] {1, 2, (byte) 0xff})).hasToString("x'0102ff'");
    assertThat(a.hashCode()).isEqualTo(Bytes.of(a.toArray()).hashCode());
    Set<Integer> hashes = new HashSet<>();
    for (int i = 0; i < 16; i++) {
      hashes.add(Bytes.of(new byte[] {(byte) i}).hashCode());
    }
    assertThat(hashes).as("one-byte strings hash apart").hasSize(16);
    assertThat(Bytes.of(new byte[] {(byte) 0x80}).compareTo(Bytes.of(new byte[] {1}))).as("unsigned").isPositive();
    assertThat(Bytes.of(new byte[0]).length()).isZero();
  }
}
