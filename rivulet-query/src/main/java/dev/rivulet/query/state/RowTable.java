package dev.rivulet.query.state;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The keyed rows of a collection: a map from key rows to rows, with no order.
 *
 * <p>How: the rows lie densely in one array in the order they came (a removal moves the last row into
 * the gap), so iteration is a scan of the rows alone and a hydration's copy ({@link #toArray}) one
 * array copy, which a fresh JVM does at full speed where a loop over slots would run interpreted;
 * an open-addressing table with linear probing maps keys to those rows, so a lookup touches no
 * per-entry node, and a load of n rows sizes both once. A slot is one {@code long}: its row's
 * index beside a 32-bit tag (the key itself while every key is an integer within 32 bits, else the
 * key row's hash), so a probe reads one array and a hit one more. While every key is one 64-bit
 * integer (the usual id column), the keys are kept as primitives (in the tags while they fit in 32
 * bits, then in an array of longs) and a lookup compares them without reading any key object; the
 * first other key switches the table for good to comparing key rows. The table knows where the key
 * sits in its rows ({@code keyIndexes}), so it can also take a row alone ({@link #putRow}). With
 * primitive keys the table stores no key rows at all (not even an array for them) and makes one
 * only when a caller asks for the keys. Slots come from the key's hash with its high bits folded
 * in, which keeps keys inserted in sequence (the usual bulk load) next to each other in memory,
 * and lets such a table fill most of its slots (see {@link #maxLoad}); if a probe run ever grows
 * long (hashes that share their low bits), the table switches for good to a multiplicative spread,
 * at half load at most; a table keyed by several columns spreads so from the start. A bulk put of
 * new keys ({@link #putNew}, a query's hydrated result) makes no key rows: their slots hold the
 * key's hash, and the key row is made from the row when first asked for. Removal shifts the
 * following probe run back instead of leaving tombstones, no further than the longest probe (see
 * {@link #shiftBack}). The slot table is held in pages of {@value #PAGE} slots, so that no table
 * is one array large enough to be a humongous object (see {@code PAGE_BITS}). A lookup by
 * primitive key reads ahead the row it expects, so that in a table loaded in key order the slot
 * and the row cost one cache miss's wait, not two (see {@code lead}). A large first load whose
 * keys are known distinct leaves the slot table for the first call that needs keys ({@link
 * #putLoad}): the rows alone are all a first live query reads.
 *
 * <p>Not thread-safe: owned by one collection, guarded by its database's monitor.
 */
public final class RowTable {
  private static final int MIN_CAPACITY = 16;
  private static final int LONG_PROBE = 24;
  private static final int CHUNK = 64;
  /** The least first load whose key table waits for the first keyed call ({@link #putLoad}). */
  public static final int DEFER_AT = 4096;
  // A page of the slot table: 32,768 slots, 256 KB. One array for a large table would be a
  // humongous object in G1 (half a region or more: 1 MB under a 4 GB heap), which takes regions
  // no object used before; in a fresh JVM, touching those pages the first time costs about 3 ms a
  // megabyte, where pages of the young generation's usual regions are already in memory.
  private static final int PAGE_BITS = 15;
  private static final int PAGE = 1 << PAGE_BITS;
  private static final int PAGE_MASK = PAGE - 1;
  private static final Row[] NO_ROWS = {};
  private final int[] keyIndexes; // where a row's key sits (for putRow and the other row-keyed calls)
  private Row[] rows = NO_ROWS; // rows[0, size): the rows, densely, in the order they came (see removeAt)
  private long[][] slots; // pages of slots (see pages): per slot 0 when free, else entry(tag, index of its row); see the class comment
  private Row[] keys; // per slot: the key rows, once keys are not primitive (with primitive keys: null, made on demand);
  // a slot filled by putNew holds null until its key row is asked for (keyAt)
  private boolean primitive; // every key is one 64-bit integer: in the tags, or in longKeys
  private long[][] longKeys; // pages as slots: per slot the primitive key once one does not fit in 32 bits, else null
  private int mask;
  private int growAt; // maxLoad of the slot table: a field, so a load's per-row test makes no call
  private int shift; // for the multiplicative spread: 64 - log2(capacity)
  private int size;
  private int maxProbes; // the most slots any entry probed past since the last rehash: bounds every entry's distance from its home
  private boolean scrambled;
  // Slot minus row index of the last row found by a primitive key. Rows loaded in key order sit at
  // their keys' homes in the order they came (ids 1..n: row i - 1 at slot i), so the difference
  // is the same for all of them: a lookup reads the row at its key's home minus it before the
  // slot's entry arrives, and when the entry confirms the guess, the two cache misses of a lookup
  // in a large table (the slot, then the row it points to) were taken at once, not one after the other.
  private int lead;
  private boolean unindexed; // a load's rows [0, size) are not in the slot table yet (see putLoad)
  /** Lookups by primitive key that used the row read ahead at {@link #lead} (for tests). */
  long leadHits;
  /** Occupied slots that removals looked at past their gaps, and lookups past a key's home (for tests). */
  long walked;

  /** A table of rows that hold their key at {@code keyIndexes}. */
  public RowTable(int[] keyIndexes) {
    this.keyIndexes = keyIndexes;
    this.primitive = keyIndexes.length == 1; // a key of other width is never one integer
    // A key row of small integers hashes into runs of near slots (31 * h + next): spread at once,
    // rather than after the first long probe run has cost a rehash.
    this.scrambled = keyIndexes.length > 1;
    allocate(MIN_CAPACITY);
  }

  /** A slot's value: {@code tag} in the high half, 1 + the row's index in the low (never 0). */
  private static long entry(int tag, int at) {
    return (long) tag << 32 | (at + 1);
  }

  /** The index of an occupied slot's row. */
  private static int at(long entry) {
    return (int) entry - 1;
  }

  private static int tag(long entry) {
    return (int) (entry >>> 32);
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The row of {@code key}, or null. */
  public Row get(Row key) {
    index();
    int s = find(key);
    return s < 0 ? null : rowAt(s);
  }

  /** The row in slot {@code s}, an occupied one. */
  private Row rowAt(int s) {
    return rows[at(slot(s))];
  }

  /** Sets the row of {@code key}, which {@code row} holds at the table's key columns; returns the row it replaced, or null. */
  public Row put(Row key, Row row) {
    index();
    if (primitive && asLong(key) == null) {
      generalize();
    }
    int s = find(key);
    if (s >= 0) {
      return replace(s, row);
    }
    int probes = 0;
    for (s = primitive ? home((long) asLong(key)) : home(key.hashCode()); slot(s) != 0; s = (s + 1) & mask) {
      probes++;
    }
    fill(s, key, row);
    added(probes);
    return null;
  }

  /** Sets the row of occupied slot {@code s}; returns the row it replaced. */
  private Row replace(int s, Row row) {
    int at = at(slot(s));
    Row before = rows[at];
    rows[at] = row;
    return before;
  }

  /** Appends {@code row} as the row of free slot {@code s} with {@code tag} (the caller counts it, {@link #added}). */
  private void append(int s, Row row, int tag) {
    if (size == rows.length) {
      growRows(Math.max(8, 2 * size));
    }
    rows[size] = row;
    setSlot(s, entry(tag, size));
  }

  private void growRows(int length) {
    rows = Arrays.copyOf(rows, length);
  }

  /** After an insertion (appended) that probed {@code probes} slots: count it, then grow, or spread the hashes. */
  private void added(int probes) {
    size++;
    maxProbes = Math.max(maxProbes, probes);
    if (size > growAt) {
      rehash(2 * (mask + 1));
    } else if (probes > LONG_PROBE && !scrambled) {
      scrambled = true;
      rehash(capacityFor(size)); // at half load at most again
    }
  }

  /**
   * How many rows a table of {@code capacity} slots holds before it grows. Half its slots, except
   * while its keys are primitive and unscrambled: there keys inserted in sequence sit at their own
   * homes, so the table fills to 31/32 of its slots; keys that collide instead make a long probe
   * run soon, which scrambles the table and brings it back to half load.
   */
  private int maxLoad(int capacity) {
    return primitive && !scrambled ? capacity - Math.max(2, capacity / 32) : capacity / 2; // a slot stays empty
  }

  /** The smallest capacity (at least the current one) whose {@link #maxLoad} is {@code n} or more. */
  private int capacityFor(int n) {
    int cap = Math.max(MIN_CAPACITY, mask + 1);
    while (maxLoad(cap) < n) {
      cap <<= 1;
    }
    return cap;
  }

  /**
   * Sets {@code row} as the row of its own key; returns the row it replaced, or null. With
   * primitive keys no key row is made.
   */
  public Row putRow(Row row) {
    index();
    Long l = primitiveKey(row);
    if (l != null) {
      long k = l;
      int probes = 0;
      int s = home(k);
      int g = s - lead;
      Row guess = rowAtOrNull(g);
      for (long e; (e = slot(s)) != 0; s = (s + 1) & mask, probes++) {
        if (keyAt(s, e) == k) {
          int at = at(e);
          Row before = foundRow(s, at, g, guess);
          rows[at] = row;
          return before;
        }
      }
      lead = s - size; // the index appendKey gives the row
      appendKey(s, row, k);
      added(probes);
      return null;
    }
    return put(row.project(keyIndexes), row);
  }

  /** The row with {@code row}'s key (see {@link #putRow}), or null. */
  public Row getRow(Row row) {
    index();
    Long l = primitiveKey(row);
    if (l == null) {
      return get(row.project(keyIndexes));
    }
    long k = l;
    int g = home(k) - lead;
    Row guess = rowAtOrNull(g);
    int s = findLong(k);
    return s < 0 ? null : foundRow(s, at(slot(s)), g, guess);
  }

  /** {@code rows[at]}, or null when {@code at} is out of range (a guess, see {@link #lead}). */
  private Row rowAtOrNull(int at) {
    return at >= 0 && at < size ? rows[at] : null;
  }

  /**
   * The row of occupied slot {@code s}, which points to row index {@code at}, found for a primitive
   * key: {@code guess} when {@code at} is {@code g} (a guess read ahead, see {@link #lead}), else
   * read now. Learns {@link #lead}.
   */
  private Row foundRow(int s, int at, int g, Row guess) {
    lead = s - at;
    if (at == g) {
      leadHits++;
      return guess;
    }
    return rows[at];
  }

  /** Removes the row with {@code row}'s key (see {@link #putRow}); returns it, or null when absent. */
  public Row removeRow(Row row) {
    index();
    Long l = primitiveKey(row);
    if (l == null) {
      return remove(row.project(keyIndexes));
    }
    return removeAt(findLong(l));
  }

  /** The key of {@code row} as a primitive, when this table compares primitives; else null. */
  private Long primitiveKey(Row row) {
    return primitive && row.get(keyIndexes[0]) instanceof Long l ? l : null; // primitive: one key column
  }

  /** The slot of primitive key {@code k}, or -1; looks no further than {@link #maxProbes} past its home. */
  private int findLong(long k) {
    for (int s = home(k), d = 0; slot(s) != 0 && d <= maxProbes; s = (s + 1) & mask, d++) {
      if (keyAt(s, slot(s)) == k) {
        return s;
      }
      walked++;
    }
    return -1;
  }

  /** Removes the row of {@code key}; returns it, or null when absent. */
  public Row remove(Row key) {
    index();
    return removeAt(find(key));
  }

  /**
   * Empties slot {@code s} (-1: nothing to remove); returns the row it held, or null. The last row
   * moves into the removed row's place, so the rows stay dense.
   */
  private Row removeAt(int s) {
    if (s < 0) {
      return null;
    }
    int at = at(slot(s));
    Row before = rows[at];
    shiftBack(s);
    int last = --size;
    if (at != last) {
      int moved = slotOfRow(last);
      rows[at] = rows[last];
      setSlot(moved, entry(tag(slot(moved)), at));
    }
    rows[last] = null;
    return before;
  }

  /** Makes room for {@code n} rows in all, so a bulk load grows the table at most once. */
  public void reserve(int n) {
    index();
    int cap = capacityFor(n);
    if (cap > mask + 1) {
      rehash(cap);
    }
    if (n > rows.length) {
      growRows(n);
    }
  }

  public void forEach(BiConsumer<Row, Row> action) {
    index();
    for (int i = 0; i < size; i++) {
      // a primitive key is the row's own value (no probe); a key row is the slot's, if one was given
      Row key = primitive ? Row.of(primitiveKeyOf(rows[i])) : keyAt(slotOfRow(i));
      action.accept(key, rows[i]);
    }
  }

  /**
   * The slot of row {@code i}: found from the key the row holds, as every row here holds its key
   * at {@code keyIndexes} (no per-row array of slots is kept: four bytes a row).
   */
  private int slotOfRow(int i) {
    int s = primitive ? home(primitiveKeyOf(rows[i])) : home(keyHash(rows[i].canonical()));
    while (at(slot(s)) != i) {
      s = (s + 1) & mask;
    }
    return s;
  }

  /** The key {@code row}, a row of a primitive table, holds. */
  private long primitiveKeyOf(Row row) {
    return (Long) row.canonical().get(keyIndexes[0]);
  }

  /** The hash of {@code row.project(keyIndexes)} (a canonical row), without making it. */
  private int keyHash(Row row) {
    int h = 1;
    for (int c : keyIndexes) {
      h = 31 * h + java.util.Objects.hashCode(row.get(c));
    }
    return h;
  }

  public void forEachRow(Consumer<Row> action) {
    for (int i = 0; i < size; i++) {
      action.accept(rows[i]);
    }
  }

  /** The rows in the order of {@link #forEachRow}, in one new array (one array copy). */
  public Row[] toArray() {
    return Arrays.copyOf(rows, size);
  }

  /**
   * {@link #putRow} of {@code batch[0..n)}, in order (a later row of a key wins), with the table
   * sized once for them: a bulk load that needs none of the replaced rows.
   */
  public void putRows(Row[] batch, int n) {
    reserve(size + n);
    putRange(batch, 0, n);
  }

  /**
   * {@link #putRows} of a load's rows, {@code n} in all, {@code chunks[c]} holding rows {@code [c *
   * chunk, (c + 1) * chunk)}. When {@code keys} holds every row's key (distinct integers within 32
   * bits: the loading batch took them while it wrote the rows), the load has at least {@value
   * #DEFER_AT} rows and the table is empty, the rows are only appended, and the first call that
   * needs keys (a lookup, a put, a removal, {@link #reserve}, {@link #index}) builds the slot table
   * for all of them. Reading the rows ({@link #toArray}, {@link #forEachRow}, {@link #size}) needs
   * no keys: a first live query after a load finds the rows ready without the slot table, whose
   * loop in a fresh JVM runs interpreted at first and reads every row's key from memory the load
   * has left behind (a few milliseconds of the loading thread's time).
   */
  public void putLoad(Row[][] chunks, int chunk, int n, DenseKeySet keys) {
    if (keys != null && keys.size() == n && n >= DEFER_AT && size == 0 && primitive && !scrambled && longKeys == null) {
      if (n > rows.length) {
        growRows(n);
      }
      for (int c = 0; c * chunk < n; c++) {
        System.arraycopy(chunks[c], 0, rows, c * chunk, Math.min(chunk, n - c * chunk));
      }
      size = n;
      unindexed = true;
      return;
    }
    reserve(size + n);
    for (int c = 0; c * chunk < n; c++) {
      putRange(chunks[c], 0, Math.min(chunk, n - c * chunk));
    }
  }

  /**
   * Builds the slot table of the rows a load appended without it ({@link #putLoad}); does nothing
   * when every row is in it. Every call that needs keys does this first.
   */
  public void index() {
    if (!unindexed) {
      return;
    }
    unindexed = false;
    int n = size;
    size = 0;
    reserve(n);
    putRange(rows, 0, n); // each row goes back to its own index: the keys are distinct
  }

  /** True while a load's rows wait for the slot table ({@link #putLoad}; for tests). */
  public boolean deferred() {
    return unindexed;
  }

  /** {@link #putRow} of {@code batch[from..to)}, in order, into a table sized for them. */
  private void putRange(Row[] batch, int from, int to) {
    // In chunks, one call each: a fresh JVM compiles the chunk loop after about a hundred calls,
    // where a single loop would run interpreted until on-stack replacement.
    for (int i = from; i < to; i += CHUNK) {
      putRows(batch, i, Math.min(to, i + CHUNK));
    }
  }

  private void putRows(Row[] batch, int from, int to) {
    for (int i = from; i < to; ) {
      if (!primitive || longKeys != null || scrambled) { // a primitive table has one key column
        putRow(batch[i++]);
      } else {
        i = putIntKeyed(batch, i, to, keyIndexes[0]);
      }
    }
  }

  /**
   * {@link #putRow} of {@code batch[0..n)} in order while each row's key is new to the table, with
   * the table sized once for them (a hydration's result). Returns how many rows were put: {@code
   * n}, or the index of the first row whose key is already present (that row and the later ones
   * are not put). On a table of key rows no key row is made: a row's key hash is taken from its
   * key columns, and its key row only when asked for.
   */
  public int putNew(Row[] batch, int n) {
    reserve(size + n); // which builds a deferred load's key table first
    for (int from = 0; from < n; from += CHUNK) { // in chunks: see putRows
      int to = Math.min(n, from + CHUNK);
      int stop = primitive ? putNewEach(batch, from, to) : putNewKeyed(batch, from, to);
      if (stop >= 0) {
        return stop;
      }
    }
    return n;
  }

  /** {@link #putNew} of {@code batch[from..to)} one {@link #putRow} each; the first index not put, or -1. */
  private int putNewEach(Row[] batch, int from, int to) {
    for (int i = from; i < to; i++) {
      if (getRow(batch[i]) != null) {
        return i;
      }
      putRow(batch[i]);
    }
    return -1;
  }

  /** {@link #putNew} of {@code batch[from..to)} into a table of key rows; the first index not put, or -1. */
  private int putNewKeyed(Row[] batch, int from, int to) {
    for (int i = from; i < to; i++) {
      Row row = batch[i].canonical();
      int h = keyHash(row);
      long[][] sl = slots;
      int m = mask;
      int probes = 0;
      int s = home(h);
      for (long e; (e = sl[s >>> PAGE_BITS][s & PAGE_MASK]) != 0; s = s + 1 & m, probes++) { // slot(s), inline
        if (tag(e) == h && sameKey(s, row)) {
          return i;
        }
      }
      append(s, batch[i], h);
      added(probes);
    }
    return -1;
  }

  /** Whether slot {@code s} holds the key of {@code row}, a canonical row (a table of key rows). */
  private boolean sameKey(int s, Row row) {
    Row k = keys[s];
    Row other = k == null ? rowAt(s).canonical() : k.canonical();
    for (int j = 0; j < keyIndexes.length; j++) {
      if (!java.util.Objects.equals(other.get(k == null ? keyIndexes[j] : j), row.get(keyIndexes[j]))) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@link #putRow} of the rows of {@code batch[from, to)}, whose keys (at column {@code at}) go
   * into the tags at unscrambled homes, the rows reserved for them ({@link #putRows}): one
   * probe loop a row and no call but the key's read, from locals (a load's first chunks run
   * interpreted). Stops after a row that changed the table's shape (it grew or spread) or whose
   * key is no 32-bit integer (put by {@link #putRow}); returns the index after the last row put.
   */
  private int putIntKeyed(Row[] batch, int from, int to, int at) {
    long[][] sl = slots;
    Row[] rs = rows;
    int m = mask;
    for (int i = from; i < to; i++) {
      Row row = batch[i];
      long key = row.get(at) instanceof Long l ? l : 1L << 32; // not an integer: no 32-bit one either
      int k = (int) key;
      if (k != key) {
        putRow(row);
        return i + 1;
      }
      int probes = 0;
      int s = (int) (key ^ key >>> 32) & m; // home(key) while unscrambled
      long e;
      // slot(s) and tag(e), inline: a load's first chunks run interpreted
      while ((e = sl[s >>> PAGE_BITS][s & PAGE_MASK]) != 0 && (int) (e >>> 32) != k) {
        s = s + 1 & m;
        probes++;
      }
      if (e != 0) {
        rs[(int) e - 1] = row;
        continue;
      }
      int n = size;
      rs[n] = row;
      sl[s >>> PAGE_BITS][s & PAGE_MASK] = (long) k << 32 | (n + 1); // entry(k, n)
      if (probes > maxProbes) {
        maxProbes = probes;
      }
      if (probes > LONG_PROBE || n + 1 > growAt) {
        added(probes);
        return i + 1;
      }
      size = n + 1;
    }
    return to;
  }

  public List<Row> keys() {
    List<Row> out = new ArrayList<>(size);
    forEach((k, r) -> out.add(k));
    return out;
  }

  List<Row> rows() {
    List<Row> out = new ArrayList<>(size);
    forEachRow(out::add);
    return out;
  }

  private Row keyAt(int s) {
    if (primitive) {
      return Row.of(keyAt(s, slot(s)));
    }
    Row k = keys[s];
    if (k == null) { // put by putNew
      k = rowAt(s).project(keyIndexes);
      keys[s] = k;
    }
    return k;
  }

  /** The primitive key in slot {@code s}, whose entry is {@code e}. */
  private long keyAt(int s, long e) {
    return longKeys == null ? tag(e) : get(longKeys, s);
  }

  /**
   * Appends {@code row} under primitive key {@code k} in free slot {@code s} (see {@link
   * #append}); the first key beyond 32 bits moves every key to {@link #longKeys} (the tags are
   * then not read).
   */
  private void appendKey(int s, Row row, long k) {
    if (longKeys == null && (int) k != k) {
      int capacity = mask + 1;
      long[][] wide = pages(capacity);
      for (int i = 0; i < capacity; i++) {
        set(wide, i, tag(slot(i))); // a free slot's 0 is never read
      }
      longKeys = wide;
    }
    append(s, row, (int) k);
    if (longKeys != null) {
      set(longKeys, s, k);
    }
  }

  private static Long asLong(Row key) {
    return key.width() == 1 && key.canonical().get(0) instanceof Long l ? l : null; // a typed key: its canonical value
  }

  private int find(Row key) {
    if (primitive) {
      Long l = asLong(key);
      if (l == null) {
        return -1; // only long keys are present
      }
      return findLong(l);
    }
    int h = key.hashCode();
    for (int s = home(h), d = 0; slot(s) != 0 && d <= maxProbes; s = (s + 1) & mask, d++) {
      if (tag(slot(s)) == h && keyAt(s).equals(key)) {
        return s;
      }
    }
    return -1;
  }

  private void fill(int s, Row key, Row row) {
    if (primitive) {
      appendKey(s, row, (Long) key.canonical().get(0));
    } else {
      append(s, row, key.hashCode());
      keys[s] = key;
    }
  }

  /**
   * Empties slot {@code gap} and moves back the entries whose probe run passes it (their rows
   * stay). An entry more than {@link #maxProbes} slots past the gap is nearer its home than that,
   * so it and those after it stay: the walk ends there, not only at a free slot. Keys loaded in
   * sequence sit at their homes in one long run, and a removal there looks at one slot, not at the
   * rest of the run.
   */
  private void shiftBack(int gap) {
    for (int s = (gap + 1) & mask; slot(s) != 0 && (s - gap & mask) <= maxProbes; s = (s + 1) & mask) {
      walked++;
      long e = slot(s);
      int home = primitive ? home(keyAt(s, e)) : home(tag(e));
      // The entry at s may fill the gap unless its home lies cyclically in (gap, s].
      boolean homeAfterGap = gap <= s ? gap < home && home <= s : gap < home || home <= s;
      if (!homeAfterGap) {
        setSlot(gap, e);
        if (longKeys != null) {
          set(longKeys, gap, get(longKeys, s));
        } else if (keys != null) {
          keys[gap] = keys[s];
        }
        gap = s;
      }
    }
    setSlot(gap, 0);
    if (keys != null) {
      keys[gap] = null;
    }
  }


  /** True while every key is one 64-bit integer compared as a primitive (for tests). */
  boolean primitiveKeys() {
    return primitive;
  }

  /** How many slots hold a key row (for tests: {@link #putNew} leaves them out until asked). */
  int keyRowsMade() {
    int made = 0;
    for (int s = 0; keys != null && s < keys.length; s++) {
      made += keys[s] != null ? 1 : 0;
    }
    return made;
  }

  /** True while the primitive keys are kept in 32 bits each (for tests). */
  boolean intKeys() {
    return primitive && longKeys == null;
  }

  /** Slots in the table (for tests). */
  int capacity() {
    index();
    return mask + 1;
  }

  /** True once a long probe run switched the table to the multiplicative spread (for tests). */
  boolean scrambled() {
    index();
    return scrambled;
  }

  private int home(long k) {
    return scrambled ? (int) (k * 0x9E3779B97F4A7C15L >>> shift) : (int) (k ^ k >>> 32) & mask;
  }

  private int home(int h) {
    return scrambled ? (int) (h * 0x9E3779B97F4A7C15L >>> shift) : (h ^ h >>> 16) & mask;
  }

  /** A new slot table of {@code capacity} slots (the rows stay where they are). */
  private void allocate(int capacity) {
    slots = pages(capacity);
    if (primitive && longKeys != null) {
      longKeys = pages(capacity);
    } else if (!primitive) {
      keys = new Row[capacity];
    }
    mask = capacity - 1;
    shift = Long.numberOfLeadingZeros(capacity) + 1;
    growAt = maxLoad(capacity);
  }

  /** Zeroed pages for {@code capacity} slots, a power of two: whole pages, or one page when fewer. */
  private static long[][] pages(int capacity) {
    long[][] p = new long[Math.max(1, capacity >>> PAGE_BITS)][];
    for (int i = 0; i < p.length; i++) {
      p[i] = new long[Math.min(capacity, PAGE)];
    }
    return p;
  }

  private static long get(long[][] pages, int s) {
    return pages[s >>> PAGE_BITS][s & PAGE_MASK];
  }

  private static void set(long[][] pages, int s, long value) {
    pages[s >>> PAGE_BITS][s & PAGE_MASK] = value;
  }

  private long slot(int s) {
    return get(slots, s);
  }

  private void setSlot(int s, long e) {
    set(slots, s, e);
  }

  /** From primitive keys to key rows compared by hash and equals. */
  private void generalize() {
    Row[] made = new Row[mask + 1];
    for (int s = 0; s < made.length; s++) {
      long e = slot(s);
      if (e != 0) {
        made[s] = keyAt(s);
        setSlot(s, entry(made[s].hashCode(), at(e))); // the tag: the key row's hash from now on
      }
    }
    keys = made;
    primitive = false;
    longKeys = null;
    rehash(capacityFor(size));
  }

  private void rehash(int capacity) {
    Row[] oldKeys = keys;
    long[][] oldSlots = slots;
    long[][] oldLongs = longKeys;
    int oldCapacity = mask + 1;
    allocate(capacity);
    maxProbes = 0;
    for (int i = 0; i < oldCapacity; i++) {
      long e = get(oldSlots, i);
      if (e != 0) {
        long k = oldLongs != null ? get(oldLongs, i) : tag(e);
        int s = primitive ? home(k) : home(tag(e));
        for (int probes = 0; slot(s) != 0; probes++) {
          s = (s + 1) & mask;
          maxProbes = Math.max(maxProbes, probes + 1);
        }
        setSlot(s, e);
        if (oldLongs != null) {
          set(longKeys, s, k);
        } else if (!primitive) {
          keys[s] = oldKeys[i];
        }
      }
    }
  }
}
