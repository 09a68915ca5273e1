package dev.rivulet.bench.peers;

/**
 * SplitMix64 (Steele, Lea and Flood, 2014): the generator of the shared peer data, bit for bit the
 * same as {@code SplitMix64} in {@code rivulet-bench/peers/gen.mjs}. The spec is in
 * {@code rivulet-bench/peers/README.md}.
 */
public final class SplitMix64 {
  private static final long GAMMA = 0x9E3779B97F4A7C15L;
  private long state;

  public SplitMix64(long seed) {
    state = seed;
  }

  /** The next 64-bit output. */
  public long next() {
    long z = (state += GAMMA);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /**
   * A draw in {@code [0, bound)} for {@code 0 < bound <= 2^21}: the upper 32 bits of {@link
   * #next} times {@code bound}, shifted right by 32 (no rejection; the bias is below 2^-11).
   */
  public int nextInt(int bound) {
    if (bound <= 0 || bound > 1 << 21) {
      throw new IllegalArgumentException("bound must be in 1..2^21, got " + bound);
    }
    return (int) (((next() >>> 32) * bound) >>> 32);
  }
}
