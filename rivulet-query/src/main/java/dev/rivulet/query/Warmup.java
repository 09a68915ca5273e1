package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.isNull;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.max;
import static dev.rivulet.query.Exprs.not;
import static dev.rivulet.query.Exprs.or;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The engine's warm-up: when the first {@link Rivulet} database of a process is created, a daemon
 * thread first loads, by name, the classes a first query reaches ({@link FirstQueryPaths}: on two
 * cores, the application's load leaves it time for that, and a first query that finds them loaded
 * does not wait on them), then builds a small private database and works through a few query
 * shapes (a filter with an order and a limit, a left join, a text-ordered window, an inner join, a
 * group, array and singleton includes) while the application is still loading its rows, cheapest
 * and most widely useful work first: it compiles the two ordered, limited shapes one after the
 * other, each then created as a live query over {@value #ROWS} rows (compiling loads the classes a
 * first live query needs and links its call sites; creating runs the hydration's per-row loops,
 * the longest a first query runs), then compiles and creates the other shapes, then makes a few
 * updates. It runs once per process, at the lowest thread priority. It starts no further step
 * {@value #BUDGET_MS} ms of wall-clock time after it began (give or take the one step running
 * then; see {@link Budget}), or once a user's database starts creating a live query (from then on
 * the user's own query warms the same code); stopped that way before its class preload ended, it
 * then loads the classes that query has yet to reach, from the last back ({@link
 * FirstQueryPaths#loadBackwards}), in parallel with the query. A user's load of at least {@value
 * #LOAD_AHEAD_ROWS} rows that makes a collection ready while those classes are still loading
 * finishes them on its own thread ({@link #loadCommitted}). Nothing it does reaches the user: it
 * never throws, and its database is reachable from its thread only and dropped at the end.
 *
 * <p>Switched off with the system property {@code rivulet.warmup=false}; not started when the JVM
 * has a single processor (it would only compete with the application's start-up).
 *
 * <p>Concurrency: the warm-up's database is confined to its thread. The engine and the query layer
 * keep no mutable static state (only immutable constants and the engine's access object, installed
 * once by class initialisation), so the warm-up and user databases share nothing that is written.
 * The once-per-process flag is guarded by the class's monitor; the stop flag, the preload's flag
 * and the thread's reference are volatile (two threads that both find the preload unfinished both
 * load the rest: the second finds each class loaded).
 */
final class Warmup implements Runnable {
  /** The system property that switches the warm-up off when {@code false}. */
  static final String PROPERTY = "rivulet.warmup";
  static final String THREAD_NAME = "rivulet-warmup";
  static final int ROWS = 1_000;
  static final long BUDGET_MS = 300;
  /** How many query shapes a round compiles, then creates ({@link #shape}). */
  static final int SHAPES = 6;
  /**
   * How many shapes (the first: the two ordered and limited ones, whose hydrations run the
   * longest per-row loops) a round compiles and creates, one after the other, before it compiles
   * the others.
   */
  static final int FIRST = 2;
  private static final int OWNERS_COUNT = 50;
  private static final Schema ITEMS = Schema.parse(
      "id INT NOT NULL, status STRING, priority INT, title STRING, created INT, owner INT");
  private static final Schema OWNERS = Schema.parse("id INT NOT NULL, name STRING, active BOOL");
  private static final List<String> KEY = List.of("id");
  private static boolean started; // guarded by the class's monitor (no atomic: its VarHandle costs a fresh JVM a few ms)
  private static volatile boolean userQuery;
  private static volatile Thread thread;
  private static volatile boolean preloaded; // the preload pass has ended, or a user's commit took it over
  /** The least load whose commit finishes the warm-up's class preload ({@link #loadCommitted}). */
  static final int LOAD_AHEAD_ROWS = 10_000;

  private Warmup() {}

  /**
   * Called when a user's database is created: starts the warm-up thread the first time, unless
   * {@code rivulet.warmup=false} or the JVM has one processor. Never throws.
   */
  static void databaseCreated() {
    synchronized (Warmup.class) {
      if (started) {
        return;
      }
      started = true;
    }
    try {
      if (!enabled(System.getProperty(PROPERTY)) || Runtime.getRuntime().availableProcessors() < 2) {
        return; // off, or no second core to run it beside the application's own start-up
      }
      Thread t = new Thread(new Warmup(), THREAD_NAME); // no lambda: its linkage would cost the creating thread
      t.setDaemon(true);
      t.setPriority(Thread.MIN_PRIORITY);
      thread = t;
      t.start();
    } catch (RuntimeException | OutOfMemoryError e) {
      thread = null; // a warm-up that cannot start is no warm-up; the database works without it
    }
  }

  /** Called when a user's database starts creating a live query: the warm-up stops at its next step. */
  static void userQueryStarting() {
    if (!userQuery) {
      userQuery = true;
    }
  }

  /**
   * Called when a user's commit of {@code rows} rows has made a collection ready: when that is a
   * load of at least {@value #LOAD_AHEAD_ROWS} rows and the warm-up has not yet loaded the classes
   * a first query reaches, the committing thread loads the rest from the last back ({@link
   * FirstQueryPaths#loadBackwards}) while the warm-up goes on from the first. A short load leaves
   * the warm-up too little time for them, and a first query that followed loaded them itself:
   * this way a load's thread spends that time, and the first query finds them loaded. Does nothing
   * once a user's query started, when the warm-up is off, or after the first time. Never throws.
   */
  static void loadCommitted(int rows) {
    if (rows < LOAD_AHEAD_ROWS || preloaded || userQuery || thread == null) {
      return;
    }
    preloaded = true;
    FirstQueryPaths.loadBackwards();
  }

  /** Whether the property's value leaves the warm-up on (anything but {@code false}, any case). */
  static boolean enabled(String property) {
    return property == null || !property.trim().equalsIgnoreCase("false");
  }

  /** The warm-up thread this process started, or null when none was (switched off, or no database yet). */
  static Thread thread() {
    return thread;
  }

  /** The warm-up thread's body. */
  @Override
  public void run() {
    runQuietly();
  }

  private static void runQuietly() {
    try {
      Budget budget = new Budget(BUDGET_MS, true);
      int loaded = FirstQueryPaths.load(FirstQueryPaths.BUILD, budget)
          + FirstQueryPaths.load(FirstQueryPaths.LATE, budget);
      preloaded = true;
      for (int round = 0; round < 2 && !budget.getAsBoolean(); round++) {
        run(budget);
      }
      if (userQuery && !budget.spent() && loaded < FirstQueryPaths.BUILD.length + FirstQueryPaths.LATE.length) {
        // stopped for a user's query before the preload ended: load what it has yet to reach, from
        // the last it will reach back (after a whole preload that would only find them loaded,
        // about a hundred lookups beside the query)
        FirstQueryPaths.loadBackwards();
      }
    } catch (Throwable e) { // NOPMD: best effort; nothing may reach the user
      // the warm-up is abandoned; user databases share none of its state
    }
  }

  /** Whether a user's database has started creating a live query (see {@link #userQueryStarting}). */
  static boolean userQueryStarted() {
    return userQuery;
  }

  /**
   * One round on a fresh private database, most widely useful steps first: compiles the first
   * query shape (plan and graph, no rows: its classes loaded and call sites linked), loads {@value
   * #ROWS} rows and creates it as a live query (its hydration: the operators' bulk paths, which a
   * large hydration would otherwise run interpreted), then does the same for the other of the
   * first {@value #FIRST} shapes, then compiles the other shapes and creates them, then makes a few
   * updates through all. The first shape's hydration comes before the second's compilation because
   * every ordered, limited query runs the top-K's hydration, while the second shape's join serves
   * fewer (measured in fresh JVMs, medians of five or six interleaved runs: W1's first hydration
   * 18.0 -> 12.7 and 23.5 -> 17.1 ms, main-thread CPU 14.8 -> 9.7 ms; W5, W3 and W6 within
   * noise). Asks {@code stop} before each step and returns early when it says so. The database is
   * dropped at the end (nothing else references it).
   */
  static Progress run(BooleanSupplier stop) {
    Progress done = new Progress();
    Rivulet db = Rivulet.createPrivate(); // reports nothing: nothing of the warm-up is logged or thrown
    SourceCollection items = db.collection("items", ITEMS, KEY);
    SourceCollection owners = db.collection("owners", OWNERS, KEY);
    List<Query> shapes = new ArrayList<>(SHAPES);
    if (!compile(shapes, 1, items, owners, db, stop, done) || stop.getAsBoolean()) {
      return done;
    }
    load(items, owners);
    for (int i = 0; i < FIRST; i++) { // each first shape whole (compiled, then created) before the next
      if (!compile(shapes, i + 1, items, owners, db, stop, done) || !hydrate(shapes, i, db, stop, done)) {
        return done;
      }
    }
    if (!compile(shapes, SHAPES, items, owners, db, stop, done) || !hydrate(shapes, FIRST, db, stop, done)) {
      return done;
    }
    for (int i = 0; i < 20 && !stop.getAsBoolean(); i++) {
      items.beginSync().writeUnchecked(item(i * 97 % ROWS, i)).commit();
      done.updates++;
    }
    return done;
  }

  /** Compiles the shapes from {@code shapes.size()} to {@code until} (no rows: never hydrated, run or registered); false when stopped. */
  private static boolean compile(List<Query> shapes, int until, SourceCollection items, SourceCollection owners,
      Rivulet db, BooleanSupplier stop, Progress done) {
    for (int i = shapes.size(); i < until; i++) {
      if (stop.getAsBoolean()) {
        return false;
      }
      Query shape = shape(i, items, owners); // built one at a time: the first compiles sooner
      synchronized (db) {
        LiveQuery.create(db, "warm-up", shape, null);
      }
      shapes.add(shape);
      done.compiled++;
    }
    return true;
  }

  /** Creates the compiled shapes from {@code from} on as live queries (their hydrations); false when stopped. */
  private static boolean hydrate(List<Query> shapes, int from, Rivulet db, BooleanSupplier stop, Progress done) {
    for (int i = from; i < shapes.size(); i++) {
      if (stop.getAsBoolean()) {
        return false;
      }
      db.liveQuery("warm-up", shapes.get(i));
      done.hydrated++;
    }
    return true;
  }

  /** The steps one round got through: shapes compiled, shapes created as live queries, updates. */
  static final class Progress {
    int compiled;
    int hydrated;
    int updates;
  }

  /**
   * Loads the warm-up's rows unchecked ({@link SourceCollection.SyncBatch#writeUnchecked}), not
   * through the application's load path.
   */
  private static void load(SourceCollection items, SourceCollection owners) {
    Row[] people = new Row[OWNERS_COUNT];
    for (int i = 0; i < OWNERS_COUNT; i++) {
      people[i] = Row.of(i, "owner " + i, i % 3 != 0);
    }
    owners.beginSync().writeUnchecked(people).markReady().commit();
    Row[] rows = new Row[ROWS];
    for (int i = 0; i < ROWS; i++) {
      rows[i] = item(i, i % 7);
    }
    items.beginSync().writeUnchecked(rows).markReady().commit();
  }

  /** Item {@code id}: two in five have no owner (NULL keys, as an optional reference has), five in 55 of the others an absent one. */
  private static Row item(int id, int salt) {
    return Row.of(id, id % 3 == 0 ? "closed" : "open", (id * 31 + salt) % 5, "title " + (id * 7919 % ROWS),
        id, id % 5 < 2 ? null : Integer.valueOf(id % (OWNERS_COUNT + 5)));
  }

  /** Query shape {@code i} (of {@value #SHAPES}), the most common first. */
  private static Query shape(int i, SourceCollection items, SourceCollection owners) {
    return switch (i) {
      case 0 -> Query.from("i", items).where(eq(col("i.status"), lit("open")))
          .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.created"))).limit(20);
      case 1 -> Query.from("i", items).join(QueryIR.JoinKind.LEFT, "o", owners, Query.on("i.owner", "o.id"))
          .where(or(isNull(col("o.id")), eq(col("o.active"), lit(true))))
          .select(Query.as("id", col("i.id")), Query.as("priority", col("i.priority")), Query.as("name", col("o.name")))
          .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id"))).limit(20);
      case 2 -> Query.from("i", items).orderBy(Query.asc(col("i.title"))).limit(20);
      case 3 -> Query.from("i", items).join(QueryIR.JoinKind.INNER, "o", owners, Query.on("i.owner", "o.id"))
          .where(eq(col("i.status"), lit("open")))
          .select(Query.as("id", col("i.id")), Query.as("title", col("i.title")), Query.as("name", col("o.name")));
      case 4 -> Query.from("i", items).groupBy(col("i.owner"))
          .select(Query.as("owner", col("i.owner")), Query.as("n", count()), Query.as("top", max(col("i.priority"))));
      case 5 -> nested(items, owners);
      default -> throw new IllegalArgumentException("no warm-up shape " + i);
    };
  }

  /** Owners with array and singleton includes. */
  private static Query nested(SourceCollection items, SourceCollection owners) {
    Query mine = Query.from("c", items).where(eq(col("c.owner"), col("o.id")))
        .select(Query.as("title", col("c.title"))).orderBy(Query.desc(col("c.created"))).limit(3);
    Query who = Query.from("p", owners).where(eq(col("p.id"), col("o.id"))).select(Query.as("name", col("p.name")));
    return Query.from("o", owners).where(not(eq(col("o.active"), lit(false))))
        .select(Query.as("id", col("o.id")), Query.includeArray("items", mine), Query.includeOne("self", who));
  }
}
