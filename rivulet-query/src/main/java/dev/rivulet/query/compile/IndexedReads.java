package dev.rivulet.query.compile;

import dev.rivulet.engine.RowSource;
import dev.rivulet.engine.Stream;
import dev.rivulet.query.Source;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The reads of eager sources that an include's semi-join with its active buckets serves by an
 * index of its own ({@code Stream.semiJoin}). Such a semi-join needs the source's rows, not the
 * active buckets' rows only: when every read of a source in the query is one, the source's input
 * is not hydrated and each semi-join takes the rows from the source when the graph first runs
 * (one pass over the rows into a compact index, no delta of a million rows, no second copy in a
 * join's state); otherwise the input is hydrated as usual and the semi-joins index its delta.
 *
 * <p>Used by one {@link QueryCompiler}; not thread-safe.
 */
final class IndexedReads {
  /** The snapshot a semi-join asks for when the graph first runs: set when the compilation ends. */
  private static final class Gate implements Supplier<RowSource> {
    private RowSource source;

    @Override
    public RowSource get() {
      return source;
    }
  }

  private final Map<Stream, Source> inputs = new IdentityHashMap<>();
  private final Map<Source, Integer> reads = new IdentityHashMap<>();
  private final Map<Source, List<Gate>> gates = new IdentityHashMap<>();

  /** Notes a read of {@code source} by its graph input {@code stream}; returns the stream. */
  Stream input(Source source, Stream stream) {
    inputs.put(stream, source);
    Integer n = reads.get(source);
    reads.put(source, n == null ? 1 : n + 1);
    return stream;
  }

  /** Whether {@code stream} is {@code source}'s input itself (nothing filters it yet). */
  boolean isInput(Stream stream, Source source) {
    return inputs.get(stream) == source;
  }

  /** Notes that one read of {@code source} is an indexed semi-join; what it asks for its rows. */
  Supplier<RowSource> read(Source source) {
    Gate g = new Gate();
    gates.computeIfAbsent(source, s -> new ArrayList<>()).add(g);
    return g;
  }

  /** Opens the gates of the sources read only by indexed semi-joins; those sources. */
  Set<Source> finish(Function<Source, RowSource> snapshots) {
    if (gates.isEmpty()) {
      return Set.of(); // no include reads a source by an indexed semi-join (the common case)
    }
    Set<Source> out = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    for (Map.Entry<Source, List<Gate>> e : gates.entrySet()) {
      if (e.getValue().size() == reads.getOrDefault(e.getKey(), 0)) {
        RowSource rows = snapshots.apply(e.getKey());
        for (Gate g : e.getValue()) {
          g.source = rows;
        }
        out.add(e.getKey());
      }
    }
    return out;
  }
}
