package dev.rivulet.engine.internal;

import dev.rivulet.engine.Input;
import dev.rivulet.engine.Output;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;

/**
 * The engine's shortcuts for the query layer, kept off the public API: sending a row that was
 * already checked against a schema, and reading the last change of an output in place. This
 * package is exported to {@code dev.rivulet.query} only; the engine installs the one
 * implementation when {@link dev.rivulet.engine.Graph} is initialised.
 *
 * <p>Stateless (one immutable instance, safely published by class initialisation).
 */
public abstract class EngineAccess {
  private static volatile EngineAccess instance;

  protected EngineAccess() {}

  /** Called once, by the engine. */
  public static void install(EngineAccess access) {
    if (instance != null) {
      throw new IllegalStateException("the engine's access is already installed");
    }
    instance = access;
  }

  /** The engine's implementation. */
  public static EngineAccess get() {
    if (instance == null) {
      try {
        Class.forName("dev.rivulet.engine.Graph", true, EngineAccess.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
    return instance;
  }

  /** Queues {@code row}; it is checked only when {@code checkedAgainst} is not the input's schema. */
  public abstract void send(Input input, Row row, long weight, Schema checkedAgainst);

  /**
   * Queues {@code rows[0..n)}, each inserted once, as {@code n} calls of {@link #send} would (a
   * hydration); typed rows are replaced by their canonical form in {@code rows}, and the array
   * becomes the input's (the caller does not use it again). {@code canonical}: the caller vouches
   * that no row is typed (a collection's stored rows), so rows that need no check are not read.
   */
  public abstract void sendAll(Input input, Row[] rows, int n, Schema checkedAgainst, boolean canonical);

  /** Entries in the last change of {@code output}. */
  public abstract int deltaSize(Output output);

  /** Entry {@code i} of the last change, in place (valid until the next run). */
  public abstract Row deltaRow(Output output, int i);

  public abstract long deltaWeight(Output output, int i);

  /**
   * The rows of the last change in place (entries {@code [0, deltaSize)}, valid until the next
   * run) when it is insert-only: every weight one, no positions; null otherwise.
   */
  public abstract Row[] deltaInserts(Output output);

  /** The position of entry {@code i} of a positioned change; -1 when not positioned. */
  public abstract int deltaPosition(Output output, int i);

  /** Applies the last change, a positioned one, to {@code window}. */
  public abstract void spliceDeltaInto(Output output, List<Row> window);

  /**
   * {@code row} showing {@code shown[i]} at column {@code columns[i]} (any object: a nested
   * result's public form) while its canonical values, equality and hash stay those of {@code row}.
   * Other columns show what {@code row} shows.
   */
  public abstract Row showing(Row row, int[] columns, Object[] shown);

  /**
   * The canonical values of each row of {@code rows[from, to)} that is not null and has {@code
   * width} values, in order, into {@code out} (room for {@code to - from}); returns how many. Each
   * is the row's own array (not a copy), for sharing many rows' values a column at a time: a caller
   * may only replace an element by an equal canonical value (another instance of it), and must not
   * keep the array. The row's equality, hash, order and rendering do not change, only which objects
   * hold its values; that is safe while other threads read the row, each seeing either instance of
   * an immutable value. One call for many rows: a load's first blocks run interpreted, where a call
   * per row costs.
   */
  public abstract int valuesInPlace(Row[] rows, int from, int to, int width, Object[][] out);

  /** The canonical value of {@code row} at column {@code i} (what its equality compares), whatever it shows. */
  public abstract Object canonicalAt(Row row, int i);
}
