package dev.rivulet.engine;

/** The graph is wired wrongly (a cycle, an unbound forward stream, mismatched key types). */
public final class WiringException extends RivuletException {
  private static final long serialVersionUID = 1L;

  public WiringException(String message) {
    super(message);
  }
}
