package dev.rivulet.query;

import dev.rivulet.engine.RivuletException;

/** A query is malformed; the message names the clause and the column or alias at fault. */
public final class QueryException extends RivuletException {
  private static final long serialVersionUID = 1L;

  public QueryException(String message) {
    super(message);
  }
}
