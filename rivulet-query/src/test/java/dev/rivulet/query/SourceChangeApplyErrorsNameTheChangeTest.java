package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SchemaException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A list of changes that {@link SourceCollection#apply} refuses because a row does not fit the
 * schema names the change, as its other refusals do: in a list of thousands the row alone does not
 * say which entry to fix (an edit's old and new rows may even be equal but for the bad value).
 */
class SourceChangeApplyErrorsNameTheChangeTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection items = db.collection("items", Schema.parse("id INT NOT NULL, name STRING"),
      List.of("id"));

  @Test
  void aRowThatDoesNotFitNamesItsChange() {
    items.apply(List.of(new SourceChange.Add(Row.of(1, "a"))));
    assertThatThrownBy(() -> items.apply(List.of(new SourceChange.Add(Row.of(2, "b")),
        new SourceChange.Add(Row.of(3, 3)))))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("apply to 'items': change 1 (Add[row=[3, 3]])")
        .hasMessageContaining("column 'name' expects STRING");
    assertThatThrownBy(() -> items.apply(List.of(new SourceChange.Add(Row.of(2, "b")),
        new SourceChange.Edit(Row.of(1, 7), Row.of(1, "a")))))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("change 1 (Edit[")
        .hasMessageContaining("column 'name' expects STRING");
    assertThat(items.rows()).containsExactly(Row.of(1, "a"));
  }
}
