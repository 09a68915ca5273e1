package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link Schema#parse}'s type names: SQL's {@code BOOLEAN} too, and an error that lists them. */
class SchemaTypeNamesTest {

  @Test
  void booleanIsBool() {
    Schema s = Schema.parse("id INT NOT NULL, done BOOLEAN, flag bool, other Boolean NOT NULL");
    assertThat(s.column(1)).isEqualTo(Column.of("done", ColumnType.BOOL));
    assertThat(s.column(2)).isEqualTo(Column.of("flag", ColumnType.BOOL));
    assertThat(s.column(3)).isEqualTo(Column.notNull("other", ColumnType.BOOL));
  }

  @Test
  void everyTypeHasItsName() {
    for (ColumnType t : ColumnType.values()) {
      assertThat(Schema.parse("c " + t.name()).column(0).type()).isEqualTo(t);
      assertThat(Schema.parse("c " + t.name().toLowerCase(java.util.Locale.ROOT)).column(0).type()).isEqualTo(t);
      assertThat(ColumnType.NAMES).contains(t.name());
    }
    assertThat(ColumnType.named("boolean")).isEqualTo(ColumnType.BOOL);
    assertThat(ColumnType.named("VARCHAR")).isNull();
  }

  @Test
  void unknownTypeListsTheTypes() {
    assertThatThrownBy(() -> Schema.parse("id INT, title VARCHAR"))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("unknown column type 'VARCHAR' for column 'title'")
        .hasMessageContaining("INT, DOUBLE, DECIMAL, STRING, BOOL (or BOOLEAN), BYTES, DATE, TIMESTAMP, ANY");
  }
}
