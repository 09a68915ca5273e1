package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The plain model {@link ApiMisusePropertyTest} checks the public API against, written from the
 * documented behaviour only: a collection's visible rows are its synced rows overlaid by pending
 * transactions' writes in apply order; a live query's rows are a filter of its source's; a query
 * keyed by a colliding column is in ERROR (keeping its last rows) while two rows share the key; a
 * reader of a query in ERROR is in ERROR too and recovers with it; a closed source fails its
 * readers for good; every failure is reported once to the error handler.
 */
final class ApiModel {
  static final Schema ITEMS = Schema.parse("id INT NOT NULL, name STRING, score DOUBLE");
  static final Schema PAIRS = Schema.parse("a INT NOT NULL, b STRING NOT NULL, v INT");
  private static final String HUGE = "x".repeat(70_000);
  private static final Object[] NAMES = {"a", "b", "", null, HUGE, "\uD83D\uDE00", "a"};
  private static final Object[] SCORES =
      {null, 0.5, -1.0, Double.NaN, 1e308, 2.0, Double.NEGATIVE_INFINITY, -0.0};
  private static final Object[] VS = {null, 1, -5, Long.MAX_VALUE};

  private ApiModel() {}

  /** What a live query does with its source's rows. */
  enum Kind {
    /** {@code from items where id > 2} */
    FILTER,
    /** {@code select name, id from items}, keyed by name: fails while two rows share a name */
    BY_NAME,
    /** {@code from <live query> where name is not null} */
    READER
  }

  static final class Coll {
    final String name;
    final SourceCollection c;
    final boolean pairs;
    final Map<Row, Row> synced = new HashMap<>();
    Status status = Status.IDLE;
    boolean closed;
    Map<Row, Row> frozen; // the visible rows when it was closed

    Coll(String name, SourceCollection c) {
      this.name = name;
      this.c = c;
      this.pairs = name.equals("pairs");
    }

    Row keyOf(Row row) {
      return pairs ? Row.of(row.get(0), row.get(1)) : Row.of(row.get(0));
    }
  }

  static final class Live {
    final Kind kind;
    final String name;
    final LiveQuery q;
    final Coll coll; // the source of FILTER and BY_NAME
    final Live src; // the source of READER
    final int nameIndex; // where the name column is in its rows
    final Map<Row, Row> folded = new HashMap<>();
    List<Row> published = List.of();
    Status status = Status.IDLE;
    boolean dead; // closed, or failed for good
    int errors; // failures reported
    int recoveries;
    int seenSrcErrors;

    Live(Kind kind, String name, LiveQuery q, Coll coll, Live src) {
      this.kind = kind;
      this.name = name;
      this.q = q;
      this.coll = coll;
      this.src = src;
      this.nameIndex = kind == Kind.FILTER ? 1 : kind == Kind.BY_NAME ? 0 : src.nameIndex;
    }
  }

  static final class Tx {
    final Transaction tx;
    final Map<Coll, Map<Row, Row>> writes = new LinkedHashMap<>();

    Tx(Transaction tx) {
      this.tx = tx;
    }
  }

  static final class Db {
    final Rivulet db;
    final String name;
    final List<Coll> colls = new ArrayList<>();
    final List<Live> queries = new ArrayList<>();
    final List<Tx> pending = new ArrayList<>();
    final Map<String, Integer> reports = new HashMap<>();
    long txId;

    Db(Rivulet db, String name) {
      this.db = db;
      this.name = name;
      db.onError((c, e) -> reports.merge(c.name(), 1, Integer::sum));
    }

    void add(String collName, Schema schema, List<String> key) {
      colls.add(new Coll(collName, db.collection(collName, schema, key)));
    }

    /** Creates a live query and its model; a reader of a query in ERROR starts in ERROR. */
    Live query(Kind kind, Coll coll, Live src, String qName, Query query) {
      LiveQuery q = kind == Kind.BY_NAME ? db.liveQuery(qName, query, List.of("name")) : db.liveQuery(qName, query);
      Live m = new Live(kind, qName, q, coll, src);
      q.subscribe(SubscribeOptions.sync().withInitialState(), b -> b.events().forEach(e -> {
        if (e.value() == null) {
          m.folded.remove(e.key());
        } else {
          m.folded.put(e.key(), e.value());
        }
      }));
      if (src != null && src.status == Status.ERROR) {
        m.status = Status.ERROR;
        m.seenSrcErrors = src.errors;
      } else {
        List<Row> now = compute(m);
        if (kind == Kind.BY_NAME && duplicateNames(now)) {
          m.status = Status.ERROR;
        } else {
          m.published = now;
          m.status = src != null ? src.status : coll.status;
        }
      }
      queries.add(m);
      return m;
    }

    Map<Row, Row> visible(Coll c) {
      if (c.closed) {
        return c.frozen;
      }
      Map<Row, Row> out = new HashMap<>(c.synced);
      for (Tx t : pending) {
        Map<Row, Row> w = t.writes.get(c);
        if (w != null) {
          w.forEach((k, v) -> {
            if (v == null) {
              out.remove(k);
            } else {
              out.put(k, v);
            }
          });
        }
      }
      return out;
    }

    /** A committed sync batch of {@code c}: {key, row or null} in order. */
    void synced(Coll c, List<Row[]> writes, boolean ready) {
      txId++;
      applySync(c, writes, ready);
      evaluate();
    }

    void applySync(Coll c, List<Row[]> writes, boolean ready) {
      for (Row[] w : writes) {
        write(c, w[0], w[1]);
      }
      if (ready) {
        c.status = Status.READY;
      } else if (c.status == Status.IDLE) {
        c.status = Status.LOADING;
      }
    }

    private static void write(Coll c, Row key, Row row) {
      if (row == null) {
        c.synced.remove(key);
      } else {
        c.synced.put(key, row);
      }
    }

    void applied(Tx t) {
      txId++;
      pending.add(t);
      evaluate();
    }

    /** Confirm: the writes become synced rows (of the collections still open); rollback: dropped. */
    void settled(Tx t, boolean confirm) {
      txId++;
      pending.remove(t);
      if (confirm) {
        t.writes.forEach((c, w) -> {
          if (!c.closed) {
            w.forEach((k, v) -> write(c, k, v));
          }
        });
      }
      evaluate();
    }

    void closed(Coll c) {
      if (!c.closed) {
        c.frozen = visible(c);
        c.closed = true;
      }
      evaluate();
    }

    void closed(Live q) {
      q.status = Status.CLOSED;
      q.dead = true;
      evaluate();
    }

    /** Every live query in creation order, after a transaction or a close. */
    void evaluate() {
      for (Live m : queries) {
        if (m.dead) {
          continue;
        }
        Status source = m.coll != null ? (m.coll.closed ? Status.CLOSED : m.coll.status) : m.src.status;
        if (source == Status.CLOSED) {
          m.dead = true;
          m.status = Status.ERROR;
          m.errors++;
        } else if (source == Status.ERROR) {
          if (m.status != Status.ERROR || m.seenSrcErrors != m.src.errors) {
            m.errors++;
          }
          m.status = Status.ERROR;
          m.seenSrcErrors = m.src.errors;
        } else {
          List<Row> now = compute(m);
          if (m.kind == Kind.BY_NAME && duplicateNames(now)) {
            m.errors += m.status == Status.ERROR ? 0 : 1;
            m.status = Status.ERROR;
          } else {
            m.recoveries += m.status == Status.ERROR ? 1 : 0;
            m.published = now;
            m.status = source;
          }
        }
      }
    }

    private List<Row> compute(Live m) {
      List<Row> out = new ArrayList<>();
      if (m.kind == Kind.READER) {
        for (Row r : m.src.published) {
          if (r.get(m.src.nameIndex) != null) {
            out.add(r);
          }
        }
        return out;
      }
      for (Row r : visible(m.coll).values()) {
        if (m.kind == Kind.BY_NAME) {
          out.add(Row.of(r.get(1), r.get(0)));
        } else if ((Long) r.get(0) > 2) {
          out.add(r);
        }
      }
      return out;
    }
  }

  static boolean duplicateNames(List<Row> byName) {
    Set<Row> names = new HashSet<>();
    for (Row r : byName) {
      if (!names.add(Row.of(r.get(0)))) {
        return true;
      }
    }
    return false;
  }

  /** A random valid row of {@code c}, over small colliding domains and awkward values. */
  static Row row(Random r, Coll c) {
    if (c.pairs) {
      return Row.of(r.nextInt(4), r.nextBoolean() ? "x" : "y", VS[r.nextInt(VS.length)]);
    }
    return Row.of(r.nextInt(8), NAMES[r.nextInt(NAMES.length)], SCORES[r.nextInt(SCORES.length)]);
  }

  /** Rows with their multiplicities. */
  static Map<Row, Integer> bag(List<Row> rows) {
    Map<Row, Integer> out = new HashMap<>();
    for (Row r : rows) {
      out.merge(r, 1, Integer::sum);
    }
    return out;
  }
}
