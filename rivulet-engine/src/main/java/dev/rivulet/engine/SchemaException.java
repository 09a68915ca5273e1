package dev.rivulet.engine;

/** A row, column or type does not fit the schema it was checked against. */
public class SchemaException extends RivuletException {
  private static final long serialVersionUID = 1L;

  public SchemaException(String message) {
    super(message);
  }
}
