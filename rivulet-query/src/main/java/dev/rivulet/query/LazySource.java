package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A source that loads subsets of its rows on request, for a {@link LazyCollection}: the
 * collection holds only the rows that current requests loaded (see {@link
 * Rivulet#lazyCollection}).
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>{@link #load} returns at once (it must not block) and completes the future, on any
 *       thread, with one coherent baseline: every row of the source that the request selects
 *       (see {@link SubsetRequest}), as rows of the collection's schema. Completing it
 *       exceptionally fails the request (the collection goes to {@link Status#ERROR} until {@link
 *       LazyCollection#retry}).
 *   <li>{@code cancellation} fires when the database no longer needs the request. A conforming
 *       source checks it immediately before completing with rows and, once cancelled, completes
 *       exceptionally (a {@link java.util.concurrent.CancellationException}) or not at all. The
 *       database never installs the rows of a cancelled or superseded request, whatever the
 *       source does.
 * </ul>
 *
 * <p>Implementations are called under the database's lock and must be thread-safe if they
 * complete on other threads.
 */
public interface LazySource {
  /** Starts loading the rows {@code request} selects. */
  CompletableFuture<List<Row>> load(SubsetRequest request, Cancellation cancellation);

  /**
   * Registers {@code listener} for the changes the source makes after loading (its rows added,
   * removed or edited), each list one transaction of the source. A lazy collection registers
   * itself when it is created and applies the changes its held requests cover; a source whose
   * rows never change need not call it (the default ignores the listener). The listener must be
   * called without holding a lock a load takes.
   */
  default void onChange(java.util.function.Consumer<List<SourceChange>> listener) {}
}
