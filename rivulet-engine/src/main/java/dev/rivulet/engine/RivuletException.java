package dev.rivulet.engine;

/** Base of every error Rivulet raises on purpose; the message names the problem. */
public class RivuletException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RivuletException(String message) {
    super(message);
  }

  public RivuletException(String message, Throwable cause) {
    super(message, cause);
  }
}
