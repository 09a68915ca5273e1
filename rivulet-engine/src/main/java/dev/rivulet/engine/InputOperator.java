package dev.rivulet.engine;

import dev.rivulet.engine.state.Bag;

/**
 * A named graph input: forwards the batch sent to it since the last run, and retains what it
 * holds (its contents: every row sent, with the sum of its weights, including the changes queued
 * for the next run), so that a retraction of a row it does not hold is rejected when it is sent,
 * before any operator sees it.
 *
 * <p>An input fed through the query layer's shortcut ({@link #acceptTrusted}) keeps no contents:
 * the query layer sends only the changes of collections whose rows it holds, so its retractions
 * always match, and a second copy of every row would cost memory and time for nothing. From its
 * first trusted change on, the input counts nothing.
 */
final class InputOperator extends Operator {
  final Delta pending = new Delta();
  private Bag<Row> contents = new Bag<>();
  private boolean trusted;

  /** Queues {@code row} with {@code weight} from a sender whose retractions always match. */
  void acceptTrusted(Row row, long weight) {
    trust();
    pending.add(row, weight);
  }

  /** Queues {@code batch} from a sender whose retractions always match. */
  void acceptAllTrusted(ZSet batch) {
    trust();
    pending.addAll(batch);
  }

  /**
   * Queues {@code rows[0..n)} (canonical), each with weight 1, from a sender whose retractions
   * always match; the array becomes the input's (a hydration's, not copied when nothing is queued).
   */
  void acceptAllTrusted(Row[] rows, int n) {
    trust();
    if (!pending.adopt(rows, n)) {
      pending.addAll(rows, n, 1);
    }
  }

  private void trust() {
    if (!trusted) {
      trusted = true;
      contents = null;
    }
  }

  InputOperator(Schema schema) {
    super("input", schema);
  }

  /**
   * Queues {@code row} with {@code weight}.
   *
   * @throws RivuletException, queueing nothing, when the row's multiplicity would fall below zero
   */
  void accept(String input, Row row, long weight) {
    hold(input, row, weight);
    pending.add(row, weight);
  }

  /**
   * Queues every entry of {@code batch}, or, when any row's multiplicity would fall below zero
   * once the whole batch is counted, none of them.
   *
   * @throws RivuletException naming the first such row
   */
  void acceptAll(String input, ZSet batch) {
    if (trusted) {
      pending.addAll(batch);
      return;
    }
    int n = batch.size();
    RivuletException refused = null;
    for (int i = 0; i < n; i++) {
      contents.add(batch.row(i), batch.weight(i));
    }
    for (int i = 0; i < n && refused == null; i++) {
      Row row = batch.row(i);
      long left = contents.weightOf(row);
      if (batch.weight(i) < 0 && left < 0) {
        long net = 0;
        for (int j = 0; j < n; j++) {
          net += batch.row(j).equals(row) ? batch.weight(j) : 0;
        }
        refused = refusal(input, row, net, left - net);
      }
    }
    if (refused != null) {
      for (int i = 0; i < n; i++) {
        contents.add(batch.row(i), -batch.weight(i));
      }
      throw refused;
    }
    pending.addAll(batch);
  }

  /** Counts {@code weight} more copies of {@code row}, refusing a multiplicity below zero. */
  void hold(String input, Row row, long weight) {
    if (trusted) {
      return;
    }
    long now = contents.add(row, weight);
    if (now < 0) {
      contents.add(row, -weight);
      throw refusal(input, row, weight, now - weight);
    }
  }

  private static RivuletException refusal(String input, Row row, long weight, long held) {
    return new RivuletException("input '" + input + "': retraction of " + row + " x" + (-weight) + " but the input"
        + " holds " + held + (held == 1 ? " copy" : " copies") + " of it; the change is rejected and nothing of it is"
        + " queued");
  }

  @Override
  void feedsFrom(long[] bits, int bit) {
    super.feedsFrom(bits, bit);
    pending.feeds(bits, bit);
  }

  @Override
  boolean hasPending() {
    return !pending.isEmpty();
  }

  @Override
  void step() {
    examined += pending.size;
    handOff(pending); // a hydration's batch goes on without a copy
  }

  @Override
  void clearInputs() {
    pending.clear();
  }

  @Override
  long retained() {
    return trusted ? 0 : contents.size();
  }
}
