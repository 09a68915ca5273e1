package dev.rivulet.engine;

/**
 * State reached a point its law forbids, such as a negative final multiplicity. The message names
 * the operator and the offending row. The run that raised it is abandoned; see {@link Graph#run}.
 */
public final class InvariantViolation extends RivuletException {
  private static final long serialVersionUID = 1L;

  public InvariantViolation(String message) {
    super(message);
  }
}
