package dev.rivulet.engine;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * An immutable byte string: the canonical form of a {@code byte[]} value. Equality and hashing are
 * by content; the order is unsigned lexicographic, as SQL engines compare blobs.
 */
public final class Bytes implements Comparable<Bytes> {
  private final byte[] data;
  private final int hash;

  private Bytes(byte[] data) {
    this.data = data;
    this.hash = Arrays.hashCode(data);
  }

  /** Copies {@code data}; later changes to the array do not reach this value. */
  public static Bytes of(byte[] data) {
    return new Bytes(data.clone());
  }

  public int length() {
    return data.length;
  }

  public byte[] toArray() {
    return data.clone();
  }

  @Override
  public int compareTo(Bytes o) {
    return Arrays.compareUnsigned(data, o.data);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Bytes b && hash == b.hash && Arrays.equals(data, b.data);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return "x'" + HexFormat.of().formatHex(data) + "'";
  }
}
