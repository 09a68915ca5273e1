package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.compile.RowShape;
import dev.rivulet.query.face.Delivery;
import dev.rivulet.query.face.Publication;
import dev.rivulet.query.face.StoredChange;
import dev.rivulet.query.face.TreeDiff;
import dev.rivulet.query.face.TreeFace;
import dev.rivulet.query.state.ChangeBuffer;
import dev.rivulet.query.state.RowTable;
import dev.rivulet.query.state.StagedChanges;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * What source collections and live queries share: the keyed rows of the last published
 * transaction, the status lifecycle, the ready signal, and subscriptions. A transaction's changes
 * are staged by {@link #changed} while the owning {@link Rivulet} runs it, and handed to the
 * subscribers by {@link #publish} once every collection has installed its state.
 *
 * <p>All mutable state is guarded by the owning {@link Rivulet}'s monitor; each subscriber's
 * mailbox ({@link Delivery}) has its own.
 */
abstract class BaseCollection implements LiveCollection {
  final Rivulet db;
  private final String name;
  final Schema schema;
  private final List<String> keyColumns;
  private final Schema keySchema; // the key columns, to type keys for readers
  final int[] keyIndexes;
  /** Stored rows by key; a stored row holds its key at {@link #storedKeys}. */
  final RowTable rows;
  private final int[] storedKeys;
  /** This transaction's change in source form, kept only when a live query reads this collection. */
  final ChangeBuffer change = new ChangeBuffer();
  /** How many open live queries read this collection (each counts once per time it reads it). */
  int observers;
  /** Per key touched in the running transaction: its row before it and now; net at publish. */
  private final StagedChanges staged;
  private final List<Subscriber<?>> subscribers = new CopyOnWriteArrayList<>();
  private int eventSubscribers; // those that read keyed events (window subscribers do not)
  private int treeSubscribers; // those that read stored changes (the change-tree face)
  // The ready signal, made by the first ready() call (in a fresh JVM, CompletableFuture's class
  // initialisation costs a collection's creation milliseconds, and many are never asked); its
  // first outcome is kept until then. Guarded by the database's monitor.
  private CompletableFuture<Void> ready;
  private boolean readySettled;
  private Throwable readyFailure; // with readySettled: null when it settled ready
  volatile Status status = Status.IDLE; // written under the monitor; read by write-time checks (a sync batch's write reads it directly)
  private Throwable error;
  /** Rows installed while nothing recorded changes, so not compared with the rows they replaced (for tests). */
  long quietInstalls;

  /**
   * @param storedKeys where the key sits in a stored row; null when stored rows are in {@code
   *     schema} (the key columns then)
   */
  BaseCollection(Rivulet db, String name, Schema schema, List<String> keyColumns, int[] storedKeys) {
    this.db = db;
    this.name = name;
    this.schema = schema;
    this.keyColumns = List.copyOf(keyColumns);
    this.keyIndexes = schema.indexesOf(keyColumns);
    this.storedKeys = storedKeys != null ? storedKeys : keyIndexes;
    this.rows = new RowTable(this.storedKeys);
    this.staged = new StagedChanges(this.storedKeys);
    List<dev.rivulet.engine.Column> keyCols = new ArrayList<>();
    for (int k : keyIndexes) {
      keyCols.add(schema.column(k));
    }
    this.keySchema = Schema.of(keyCols);
  }

  /** The key of a stored row. */
  final Row keyOf(Row stored) {
    return stored.project(storedKeys);
  }

  /**
   * What readers and listeners see of a stored row: its visible columns, typed ({@link
   * Schema#present}: each value in its column's Java class, e.g. a DOUBLE's 2 as 2.0). Called once
   * per row a publication carries, and per row a read returns.
   */
  Row publicRow(Row stored) {
    return schema.present(stored); // stored rows are the schema's rows, unless a subclass says otherwise
  }

  /**
   * {@link #publicRow} of a stored row that a publication carries (caller holds the monitor); a
   * subclass may remember it between publications. {@code leaving}: the row is a key's row before
   * the transaction, so this publication is the last to carry it.
   */
  Row publishedRow(Row stored, boolean leaving) {
    return publicRow(stored);
  }

  /** What readers and listeners see of a key (typed like {@link #publicRow}). */
  Row publicKey(Row key) {
    return keySchema.present(key);
  }

  /** The form in which a stored row flows into queries that read this collection: itself, by default. */
  Row sourceRow(Row stored) {
    return stored;
  }

  /** Whether a stored row is its own source form ({@link #sourceRow} is the identity). */
  boolean storedIsSource() {
    return true;
  }

  /** Every current row in its source form, in one new array (a hydration's). */
  final Row[] sourceRows() {
    Row[] out = rows.toArray();
    if (!storedIsSource()) {
      for (int i = 0; i < out.length; i++) {
        out[i] = sourceRow(out[i]);
      }
    }
    return out;
  }

  /** Calls {@code sink} with every current row in its source form (an indexed read's hydration). */
  final void forEachSourceRow(Consumer<Row> sink) {
    if (storedIsSource()) {
      rows.forEachRow(sink);
    } else {
      rows.forEachRow(r -> sink.accept(sourceRow(r)));
    }
  }

  /**
   * Shares the repeated values of rows loaded but not yet pooled, before a live query copies values
   * out of them (a source collection's large loads, {@link LoadPooling}); nothing for others.
   */
  void poolLoads() {}

  /** The current rows by key, as readers see them. */
  final Map<Row, Row> snapshot() {
    Map<Row, Row> out = new LinkedHashMap<>();
    rows.forEach((k, r) -> out.put(publicKey(k), publicRow(r)));
    return out;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public List<String> keyColumns() {
    return keyColumns;
  }

  @Override
  public Status status() {
    synchronized (db) {
      return status;
    }
  }

  /** The status, for callers already holding the database's monitor. */
  Status statusNow() {
    return status;
  }

  @Override
  public Throwable error() {
    synchronized (db) {
      return error;
    }
  }

  /** The error, for callers already holding the database's monitor. */
  Throwable errorNow() {
    return error;
  }

  @Override
  public CompletableFuture<Void> ready() {
    synchronized (db) {
      if (ready == null) {
        ready = new CompletableFuture<>();
        if (readySettled) {
          complete(ready, readyFailure);
        }
      }
      return ready;
    }
  }

  /**
   * Settles the ready signal (caller holds the monitor; run after the transaction, see {@link
   * Rivulet#settleAfterTransaction}): ready when {@code failure} is null, else failed with it. The
   * first outcome holds, as a future's does.
   */
  void settleReady(Throwable failure) {
    if (readySettled) {
      return;
    }
    readySettled = true;
    readyFailure = failure;
    if (ready != null) {
      complete(ready, failure);
    }
  }

  private static void complete(CompletableFuture<Void> f, Throwable failure) {
    if (failure == null) {
      f.complete(null);
    } else {
      f.completeExceptionally(failure);
    }
  }

  @Override
  public Optional<Row> get(Row key) {
    synchronized (db) {
      Row r = rows.get(key.canonical());
      return r == null ? Optional.empty() : Optional.of(publicRow(r));
    }
  }

  @Override
  public List<Row> rows() {
    synchronized (db) {
      List<Row> out = new ArrayList<>(rows.size());
      rows.forEachRow(r -> out.add(publicRow(r)));
      return Collections.unmodifiableList(out);
    }
  }

  @Override
  public List<KeyedRow> entries() {
    synchronized (db) {
      return entriesNow();
    }
  }

  /** {@link #entries()}, for callers holding the database's monitor. */
  final List<KeyedRow> entriesNow() {
    return entries(storedRows());
  }

  /**
   * The stored rows in reading order, copied by reference (caller holds the monitor). Stored rows
   * are immutable, so what is made of them ({@link #entries(Row[])}) needs no monitor.
   */
  Row[] storedRows() {
    return rows.toArray();
  }

  /** The keyed rows of stored rows; needs no monitor. */
  final List<KeyedRow> entries(Row[] stored) {
    List<KeyedRow> out = new ArrayList<>(stored.length);
    for (Row r : stored) {
      out.add(new KeyedRow(publicKey(keyOf(r)), publicRow(r)));
    }
    return out;
  }

  @Override
  public long txId() {
    synchronized (db) {
      return db.lastTxId();
    }
  }

  @Override
  public int size() {
    synchronized (db) {
      return rows.size();
    }
  }

  @Override
  public Subscription subscribe(Consumer<List<ChangeEvent>> listener) {
    return subscribe(SubscribeOptions.sync(), batch -> listener.accept(batch.events()));
  }

  @Override
  public Subscription subscribe(SubscribeOptions options, Consumer<KeyedBatch> listener) {
    return register(options, listener, null, true, txId -> {
      Supplier<List<ChangeEvent>> events = initialEvents(storedRows());
      return () -> new KeyedBatch(txId, true, events.get());
    }, p -> p.events.isEmpty() ? null : new KeyedBatch(p.txId, false, p.events));
  }

  @Override
  public Subscription subscribeChanges(SubscribeOptions options, Consumer<ChangeBatch> listener) {
    return register(options.withInitialState(), listener, null, true, txId -> {
      Supplier<List<ChangeEvent>> events = initialEvents(storedRows());
      return () -> new ChangeBatch.Hydrated(txId, Publication.toChanges(events.get()));
    }, p -> p.events.isEmpty() ? null : new ChangeBatch.Changed(p.txId, p.changes()));
  }

  @Override
  public ChangeSink changeSink(int capacity) {
    return new ChangeSink(this, capacity);
  }

  @Override
  public Subscription subscribeTree(SubscribeOptions options, Consumer<TreeBatch> listener) {
    TreeDiff.Buckets buckets = buckets();
    TreeFace face = new TreeFace(new TreeDiff(shape(), buckets), positioned());
    return register(options.withInitialState(), listener, null, true, true, txId -> {
      Row[] stored = storedRows();
      face.capture(stored);
      if (buckets != TreeDiff.Buckets.NONE) {
        List<CaughtChange> initial = face.hydrate(stored); // a facade's rows change: read them now
        return () -> new TreeBatch(txId, true, initial);
      }
      return () -> new TreeBatch(txId, true, face.hydrate(stored));
    }, p -> {
      List<CaughtChange> changes = face.changes(p);
      return changes.isEmpty() ? null : new TreeBatch(p.txId, false, changes);
    });
  }

  @Override
  public ChangeTreeSink changeTreeSink(int capacity) {
    return new ChangeTreeSink(this, capacity);
  }

  /**
   * How this collection's stored rows are laid out for the change-tree face: here flat (the
   * visible columns, the key where a stored row holds it, unordered, no includes).
   */
  RowShape shape() {
    return new RowShape(schema, storedKeys, false, List.of());
  }

  /** The rows of collection includes' buckets, for the change-tree face (none here). */
  TreeDiff.Buckets buckets() {
    return TreeDiff.Buckets.NONE;
  }

  /**
   * Whether the running transaction changed a collection include's bucket (none here): then it
   * is published to the change-tree subscribers though no row of this collection changed.
   */
  boolean bucketsChanged() {
    return false;
  }

  /**
   * Whether this collection's publications place its rows by index ({@link #takeTreeSteps}): an
   * ordered live query's do; elsewhere the change-tree face's root is unordered (index -1).
   */
  boolean positioned() {
    return false;
  }

  /** Whether this collection loads its rows on demand (a {@link LazyCollection}: its reads are demands). */
  boolean onDemand() {
    return false;
  }

  /** Whether this is a collection include's bucket ({@link BucketCollection}), which no live query may read. */
  boolean nested() {
    return false;
  }

  /** Whether a change-tree subscriber reads this collection (caller holds the monitor). */
  final boolean treeSubscribed() {
    return treeSubscribers > 0;
  }

  /**
   * The initial state {@code stored} (captured under the monitor, which the caller holds) as
   * inserts, built later, outside the monitor, when the public rows depend on the stored rows
   * alone; with collection includes a public row reads the include facades, which the writer's
   * transactions change, so then they are built now.
   */
  private Supplier<List<ChangeEvent>> initialEvents(Row[] stored) {
    if (buckets() != TreeDiff.Buckets.NONE) {
      List<ChangeEvent> now = insertEvents(stored);
      return () -> now;
    }
    return () -> insertEvents(stored);
  }

  /** The initial state as inserts; needs no monitor when public rows depend on stored rows alone (see {@link #initialEvents}). */
  private List<ChangeEvent> insertEvents(Row[] stored) {
    List<ChangeEvent> out = new ArrayList<>(stored.length);
    for (Row r : stored) {
      out.add(new ChangeEvent(ChangeEvent.Type.INSERT, publicKey(keyOf(r)), publicRow(r), null));
    }
    return out;
  }

  /**
   * Registers a subscription between two transactions. With {@code options.initialState()}, the
   * delivery of the current state comes first: {@code initial} (given the last transaction's id)
   * captures the state under the monitor, by reference, and returns what builds the delivery from
   * it; that runs after the monitor is released (on this thread when synchronous), while later
   * transactions queue behind it, so a writer waits only for the capture.
   *
   * @param events whether the subscriber reads keyed events (else the collection need not stage
   *     them for it)
   * @param resetter what the mailbox delivers after an overflow (null: it ends instead); called
   *     holding no monitor, it must call {@link Delivery#resetTaken} under the database's
   */
  final <T> Subscriber<T> register(SubscribeOptions options, Consumer<T> callback,
      Function<Delivery<T>, T> resetter, boolean events, LongFunction<Supplier<T>> initial,
      Function<Publication, T> face) {
    return register(options, callback, resetter, events, false, initial, face);
  }

  /** {@link #register}, for a subscriber that reads stored changes too when {@code tree}. */
  final <T> Subscriber<T> register(SubscribeOptions options, Consumer<T> callback,
      Function<Delivery<T>, T> resetter, boolean events, boolean tree, LongFunction<Supplier<T>> initial,
      Function<Publication, T> face) {
    Objects.requireNonNull(callback, "subscriber callback");
    Subscriber<T> s;
    synchronized (db) {
      if (status == Status.CLOSED) {
        throw new IllegalStateException("cannot subscribe to '" + name + "': it is closed");
      }
      Delivery<T> d = new Delivery<>(callback, options, resetter, e -> db.report(this, e));
      s = new Subscriber<>(this, face, d, db.lastTxId(), events, tree);
      if (options.initialState()) {
        d.hold(initial.apply(db.lastTxId()));
      }
      attach(s);
    }
    if (options.initialState()) {
      s.delivery.startDraining();
    }
    return s;
  }

  void unsubscribe(Subscriber<?> s) {
    synchronized (db) {
      detach(s);
    }
  }

  /** Adds a subscriber (caller holds the database's monitor). */
  final void attach(Subscriber<?> s) {
    subscribers.add(s);
    eventSubscribers += s.readsEvents() ? 1 : 0;
    treeSubscribers += s.readsTree() ? 1 : 0;
  }

  /** Removes a subscriber (caller holds the monitor); whether it was here. */
  final boolean detach(Subscriber<?> s) {
    boolean was = subscribers.remove(s);
    eventSubscribers -= was && s.readsEvents() ? 1 : 0;
    treeSubscribers -= was && s.readsTree() ? 1 : 0;
    return was;
  }

  /**
   * Installs {@code after} (null: absent) as the stored row of {@code key} and records the change
   * (see {@link #changed}). {@code key} may be null when {@code after} is not.
   */
  void install(Row key, Row after) {
    Row before = after == null ? rows.remove(key) : key == null ? rows.putRow(after) : rows.put(key, after);
    if (!recordsChanges()) {
      // Nobody reads the change: comparing the rows (a cache miss on the old one, in a large
      // table) would only decide whether to record nothing.
      quietInstalls++;
      return;
    }
    if (before == null && after == null || after != null && after.equals(before)) {
      return;
    }
    changed(key, before, after);
  }

  /** Whether {@link #changed} records anything: a live query reads this collection, or a subscriber its events. */
  final boolean recordsChanges() {
    return observers > 0 || eventSubscribers > 0;
  }

  /**
   * Records that the stored row of a key went from {@code before} to {@code after} (either null
   * for absent; {@code key} null to derive it): adds it to {@link #change} for the live queries
   * that read this collection, if any, and stages it for the listeners, if any (events are the
   * net change per key of the whole transaction).
   */
  final void changed(Row key, Row before, Row after) {
    if (observers > 0) {
      if (before != null) {
        change.add(sourceRow(before), -1);
      }
      if (after != null) {
        change.add(sourceRow(after), 1);
      }
    }
    if (eventSubscribers > 0) {
      staged.stage(key, before, after);
    }
  }

  /** Drops the staged events (after hydration, which nobody was subscribed to). */
  void discardStaged() {
    staged.clear();
  }

  /**
   * Hands transaction {@code txId}'s net change to the subscribers. A subscriber's failure is
   * reported to the database's error handler and touches nothing else.
   */
  void publish(long txId) {
    List<WindowDelta> positions = treeSubscribers > 0 ? takeTreeSteps() : null;
    List<WindowDelta> window = takeWindowSteps();
    boolean buckets = treeSubscribers > 0 && bucketsChanged(); // the tree changes inside rows that stay
    if (staged.isEmpty() && window == null && positions == null && !buckets) {
      return;
    }
    List<ChangeEvent> events = netEvents();
    List<StoredChange> stored = treeSubscribers > 0 ? storedChanges() : null;
    staged.clear();
    // A change of hidden columns only shows in no face, but the change-tree faces still follow the
    // stored rows (they index root rows by them): it is published to them, who deliver nothing.
    if (subscribers.isEmpty() || events.isEmpty() && (window == null || window.isEmpty())
        && (positions == null || positions.isEmpty()) && !buckets && (stored == null || stored.isEmpty())) {
      return;
    }
    Publication p = new Publication(txId, events, window, stored, positions);
    for (Subscriber<?> s : subscribers) {
      s.publish(p);
      if (!s.delivery.open()) {
        detach(s); // it overflowed and ended
      }
    }
  }

  /** The window's steps of this transaction, taken (only ordered live queries have them). */
  List<WindowDelta> takeWindowSteps() {
    return null;
  }

  /**
   * The steps that place this transaction's changed rows for the change-tree face (only ordered
   * live queries have them): the window's steps, or on a recovery the diff from the window
   * subscribers last saw; not taken (the window face takes them).
   */
  List<WindowDelta> takeTreeSteps() {
    return null;
  }

  /** The staged net change per key as stored rows (keys whose row did not change left out). */
  private List<StoredChange> storedChanges() {
    List<StoredChange> out = new ArrayList<>(staged.size());
    for (int i = 0; i < staged.size(); i++) {
      Row was = staged.before(i);
      Row now = staged.after(i);
      if (was == null ? now != null : !was.equals(now)) {
        out.add(new StoredChange(staged.key(i), was, now));
      }
    }
    return Collections.unmodifiableList(out);
  }

  /** The staged net change per key as keyed events, an immutable list (one event: without an array). */
  private List<ChangeEvent> netEvents() {
    ChangeEvent first = null;
    List<ChangeEvent> more = null;
    for (int i = 0; i < staged.size(); i++) {
      Row was = staged.before(i);
      Row now = staged.after(i);
      if (was == now) {
        continue; // the same stored row (or none) before and after: no change to show
      }
      Row before = was == null ? null : publishedRow(was, true);
      Row after = now == null ? null : publishedRow(now, false);
      if (before == null ? after != null : !before.equals(after)) {
        ChangeEvent.Type type = before == null ? ChangeEvent.Type.INSERT
            : after == null ? ChangeEvent.Type.DELETE : ChangeEvent.Type.UPDATE;
        ChangeEvent e = new ChangeEvent(type, publicKey(staged.key(i)), after, before);
        if (first == null) {
          first = e;
        } else {
          if (more == null) {
            more = new ArrayList<>(staged.size());
            more.add(first);
          }
          more.add(e);
        }
      }
    }
    return more != null ? Collections.unmodifiableList(more) : first != null ? List.of(first) : List.of();
  }

  void setStatus(Status next) {
    if (status == next) {
      return;
    }
    status = next;
    if (next == Status.READY) {
      db.settleAfterTransaction(this, null);
    }
  }

  @Override
  public void close() {
    synchronized (db) {
      status = Status.CLOSED;
      for (Subscriber<?> s : subscribers) {
        s.delivery.close(End.SOURCE_CLOSED);
      }
      subscribers.clear();
      eventSubscribers = 0;
      treeSubscribers = 0;
      staged.clear();
      db.settleAfterTransaction(this, new IllegalStateException("collection '" + name + "' was closed"));
      db.closed(this);
    }
  }

  /**
   * Fails unless this collection is open for writes. Needs no monitor (a write call checks it
   * early; the transaction checks it again under the monitor).
   */
  void checkOpen() {
    if (status == Status.CLOSED) {
      throw new IllegalStateException("collection '" + name + "' is closed");
    }
  }

  /** Leaves {@link Status#ERROR}: the caller sets the status it recovers to. */
  void recover() {
    status = Status.IDLE;
    error = null;
  }

  void fail(Throwable cause) {
    status = Status.ERROR;
    error = cause;
    staged.clear();
    db.settleAfterTransaction(this, cause);
  }
}
