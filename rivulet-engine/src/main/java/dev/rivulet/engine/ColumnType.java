package dev.rivulet.engine;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The declared type of a column. Each type accepts the canonical values of {@link Values} that
 * belong to its domain; {@code null} is accepted by every type (nullability is per {@link Column}).
 * Because numbers are canonical, an integral {@code DOUBLE} or {@code DECIMAL} value is held as a
 * {@link Long}, and the three numeric types are compatible with one another as join keys.
 *
 * <p>Users see each value in its type's Java class ({@link #present}): the canonical form is for
 * equality, hashing and order inside the engine, and rows handed out are typed ({@link
 * Schema#present}).
 */
public enum ColumnType {
  /**
   * Integers: 64-bit ones as {@link Long}; the exact integers beyond that range, which
   * overflowing integer arithmetic produces, as their canonical {@link Double} or {@link
   * BigDecimal}.
   */
  INT,
  /**
   * Binary floating point; integral values are held as {@link Long}, and only those a {@code
   * double} holds exactly belong to the type (2<sup>53</sup> + 1 does not).
   */
  DOUBLE,
  /** Exact decimals of any precision, and the non-finite doubles that double arithmetic makes. */
  DECIMAL,
  STRING,
  BOOL,
  BYTES,
  DATE,
  TIMESTAMP,
  /** Any canonical value; no check. */
  ANY;

  /** The type names {@link #named} accepts, for messages. */
  public static final String NAMES = "INT, DOUBLE, DECIMAL, STRING, BOOL (or BOOLEAN), BYTES, DATE, TIMESTAMP, ANY";

  /**
   * The type called {@code name} in any case ({@code BOOLEAN} is {@link #BOOL}), or null when
   * there is none.
   */
  public static ColumnType named(String name) {
    String n = name.toUpperCase(java.util.Locale.ROOT);
    if (n.equals("BOOLEAN")) {
      return BOOL;
    }
    for (ColumnType t : values()) {
      if (t.name().equals(n)) {
        return t;
      }
    }
    return null;
  }

  /** True when canonical value {@code v} (non-null) belongs to this type's domain. */
  public boolean accepts(Object v) {
    // if-chains, here and below, not switches: an enum switch compiles to a synthetic class of
    // its own, one more class for a fresh JVM to load on the way to a first query
    if (this == INT) {
      return v instanceof Long || isHugeInteger(v);
    } else if (this == DOUBLE) {
      return v instanceof Double || v instanceof Long l && Values.isExactDouble(l);
    } else if (this == DECIMAL) {
      return v instanceof Long || v instanceof Double || v instanceof BigDecimal;
    } else if (this == STRING) {
      return v instanceof String;
    } else if (this == BOOL) {
      return v instanceof Boolean;
    } else if (this == BYTES) {
      return v instanceof Bytes;
    } else if (this == DATE) {
      return v instanceof LocalDate;
    } else if (this == TIMESTAMP) {
      return v instanceof Instant;
    }
    return true; // ANY
  }

  /**
   * Canonical value {@code v} of this type in the type's Java class, as users are handed it:
   *
   * <ul>
   *   <li>{@code INT}: {@link Long}; an integer beyond 64 bits (which only overflowing integer
   *       arithmetic makes) as a {@link java.math.BigInteger}.
   *   <li>{@code DOUBLE}: {@link Double}, also when integral ({@code 2.0}, canonically {@code 2}).
   *   <li>{@code DECIMAL}: {@link BigDecimal} with the exact value (canonically a {@code Long} or
   *       a {@code Double} when one holds it); a non-finite double stays a {@code Double}.
   *   <li>Every other type, and {@code null}: the canonical value itself ({@code String}, {@code
   *       Boolean}, {@link Bytes}, {@link LocalDate}, {@link Instant}).
   * </ul>
   *
   * <p>The result has the same canonical form as {@code v}: {@code Values.canonical(present(v))}
   * equals {@code v}.
   */
  public Object present(Object v) {
    if (this == INT) {
      if (v instanceof Double d && isHugeInteger(d)) {
        return new BigDecimal(d).toBigIntegerExact();
      }
      return v instanceof BigDecimal bd && bd.scale() <= 0 ? bd.toBigIntegerExact() : v;
    } else if (this == DOUBLE) {
      return v instanceof Long l ? (Object) (double) l : v;
    } else if (this == DECIMAL) {
      if (v instanceof Long l) {
        return BigDecimal.valueOf(l);
      }
      return v instanceof Double d && Double.isFinite(d) ? new BigDecimal(d) : v;
    }
    return v;
  }

  /** True when canonical values of this type may need {@link #present} to change their class. */
  boolean presentsDifferently() {
    return this == INT || this == DOUBLE || this == DECIMAL;
  }

  /** An integer beyond 64 bits, in canonical form. */
  private static boolean isHugeInteger(Object v) {
    if (v instanceof BigDecimal bd) {
      return bd.scale() <= 0;
    }
    return v instanceof Double d && !d.isInfinite() && d == Math.rint(d);
  }

  public boolean isNumeric() {
    return this == INT || this == DOUBLE || this == DECIMAL;
  }

  /** True when values of the two types can ever be equal, so they may be matched as keys. */
  public boolean comparableWith(ColumnType other) {
    return this == other || this == ANY || other == ANY || (isNumeric() && other.isNumeric());
  }

  /**
   * The type SQL gives a literal of Java value {@code v} (not yet canonical): integers ({@code
   * Long}, {@code Integer}, {@code Short}, {@code Byte}, {@code BigInteger}) are {@code INT};
   * {@code Double} and {@code Float} are {@code DOUBLE}, also when integral ({@code 2.0}); {@code
   * BigDecimal} is {@code DECIMAL}; text is {@code STRING}; booleans {@code BOOL}; {@code byte[]}
   * and {@link Bytes} {@code BYTES}; dates {@code DATE}; timestamps {@code TIMESTAMP}; {@code
   * null} is {@code ANY} (an untyped NULL).
   *
   * @throws IllegalArgumentException naming the type when {@code v} is of no supported type
   */
  public static ColumnType ofJava(Object v) {
    if (v == null) {
      return ANY;
    }
    if (v instanceof Double || v instanceof Float) {
      return DOUBLE;
    }
    if (v instanceof BigDecimal) {
      return DECIMAL;
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
        || v instanceof java.math.BigInteger) {
      return INT;
    }
    return of(Values.canonical(v));
  }

  /** The type of a canonical non-null value. */
  public static ColumnType of(Object v) {
    if (v instanceof Long) {
      return INT;
    }
    if (v instanceof Double) {
      return DOUBLE;
    }
    if (v instanceof BigDecimal) {
      return DECIMAL;
    }
    if (v instanceof String) {
      return STRING;
    }
    if (v instanceof Boolean) {
      return BOOL;
    }
    if (v instanceof Bytes) {
      return BYTES;
    }
    if (v instanceof LocalDate) {
      return DATE;
    }
    if (v instanceof Instant) {
      return TIMESTAMP;
    }
    return ANY;
  }
}
