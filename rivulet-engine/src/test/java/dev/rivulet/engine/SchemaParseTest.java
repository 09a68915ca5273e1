package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Schema.parse: {@code name TYPE [NOT NULL | NULL]} per column, and nothing else. */
class SchemaParseTest {
  @Test
  void parsesTypesAndConstraintsCaseInsensitively() {
    Schema s = Schema.parse(" id int not null ,name STRING NULL,  score   DOUBLE  NOT   NULL, b bytes");
    assertThat(s.columns()).containsExactly(
        Column.notNull("id", ColumnType.INT),
        Column.of("name", ColumnType.STRING),
        Column.notNull("score", ColumnType.DOUBLE),
        Column.of("b", ColumnType.BYTES));
  }

  @Test
  void aMisspelledConstraintIsRefusedNamingItAndTheAcceptedForms() {
    assertThatThrownBy(() -> Schema.parse("id INT NOTNULL, title STRING"))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("'id INT NOTNULL'")
        .hasMessageContaining("unexpected 'NOTNULL'")
        .hasMessageContaining("NOT NULL")
        .hasMessageContaining("INT, DOUBLE, DECIMAL, STRING");
    assertThatThrownBy(() -> Schema.parse("id INT NOT")).hasMessageContaining("unexpected 'NOT'");
    assertThatThrownBy(() -> Schema.parse("id INT NOT NUL")).hasMessageContaining("unexpected 'NOT NUL'");
    assertThatThrownBy(() -> Schema.parse("id INT PRIMARY KEY")).hasMessageContaining("unexpected 'PRIMARY KEY'");
  }

  @Test
  void trailingTextIsRefused() {
    assertThatThrownBy(() -> Schema.parse("id INT NOT NULL extra"))
        .isInstanceOf(SchemaException.class).hasMessageContaining("unexpected 'NOT NULL extra'");
    assertThatThrownBy(() -> Schema.parse("id INT title STRING")).hasMessageContaining("unexpected 'title STRING'");
    assertThatThrownBy(() -> Schema.parse("id INT,")).hasMessageContaining("needs a name and a type");
    assertThatThrownBy(() -> Schema.parse("id INT,, x INT")).hasMessageContaining("needs a name and a type");
  }

  @Test
  void anUnknownTypeListsTheTypes() {
    assertThatThrownBy(() -> Schema.parse("id INTEGR"))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("unknown column type 'INTEGR' for column 'id'")
        .hasMessageContaining("TIMESTAMP");
    assertThatThrownBy(() -> Schema.parse("id")).hasMessageContaining("needs a name and a type");
  }
}
