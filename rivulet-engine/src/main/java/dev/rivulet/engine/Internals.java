package dev.rivulet.engine;

import dev.rivulet.engine.internal.EngineAccess;
import java.util.List;

/** The implementation of {@link EngineAccess}: forwards to the package-private shortcuts. */
final class Internals extends EngineAccess {
  static void install() {
    EngineAccess.install(new Internals());
  }

  @Override
  public void send(Input input, Row row, long weight, Schema checkedAgainst) {
    input.send(row, weight, checkedAgainst);
  }

  @Override
  public void sendAll(Input input, Row[] rows, int n, Schema checkedAgainst, boolean canonical) {
    input.sendAll(rows, n, checkedAgainst, canonical);
  }

  @Override
  public int deltaSize(Output output) {
    return output.deltaSize();
  }

  @Override
  public Row deltaRow(Output output, int i) {
    return output.deltaRow(i);
  }

  @Override
  public long deltaWeight(Output output, int i) {
    return output.deltaWeight(i);
  }

  @Override
  public Row[] deltaInserts(Output output) {
    return output.deltaInserts();
  }

  @Override
  public int deltaPosition(Output output, int i) {
    return output.deltaPosition(i);
  }

  @Override
  public void spliceDeltaInto(Output output, List<Row> window) {
    output.spliceDeltaInto(window);
  }

  @Override
  public Row showing(Row row, int[] columns, Object[] shown) {
    return row.showing(columns, shown);
  }

  @Override
  public int valuesInPlace(Row[] rows, int from, int to, int width, Object[][] out) {
    int n = 0;
    for (int i = from; i < to; i++) {
      Row r = rows[i];
      if (r != null && r.values.length == width) {
        out[n++] = r.values;
      }
    }
    return n;
  }

  @Override
  public Object canonicalAt(Row row, int i) {
    return row.canonicalAt(i);
  }
}
