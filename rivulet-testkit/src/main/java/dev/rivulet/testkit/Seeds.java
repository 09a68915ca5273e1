package dev.rivulet.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;

/**
 * The seeds a property runs over, read from the environment so that CI is reproducible and a
 * failure can be replayed.
 *
 * <ul>
 *   <li>{@code RIVULET_SEED} (system property {@code rivulet.seed}): a long. When set, every
 *       property runs exactly that one seed, whatever its base count. This is how a failure is
 *       replayed: the failure message prints the seed.
 *   <li>{@code RIVULET_RUNS} (system property {@code rivulet.runs}): a positive multiplier of every
 *       property's base count, default 1. {@code RIVULET_RUNS=100} runs a hundred times as many
 *       histories.
 *   <li>{@code RIVULET_BASE_SEED} (system property {@code rivulet.baseSeed}): the base the seed
 *       list is derived from, default {@link #DEFAULT_BASE_SEED}. Changing it explores other
 *       histories while staying reproducible.
 * </ul>
 *
 * <p>A system property wins over the environment variable of the same meaning. A value that does
 * not parse fails at once with an {@link IllegalArgumentException} naming the variable.
 *
 * <p>{@code runs(n)} is {@code n * RIVULET_RUNS} seeds: seed {@code i} is the splitmix64 mix of
 * {@code base + i * 0x9E3779B97F4A7C15}, so the list is the same on every machine and JDK, and a
 * larger multiplier only appends seeds to the default list.
 */
public final class Seeds {
  /** The base seed when {@code RIVULET_BASE_SEED} is not set: fixed, so CI is reproducible. */
  public static final long DEFAULT_BASE_SEED = 0x5EED_0F_0A_C1E5L;

  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  /** The modules {@code -am} builds first have no such test: not a failure. */
  private static final String ANY_MODULE = " -Dsurefire.failIfNoSpecifiedTests=false";

  private final OptionalLong fixed;
  private final int multiplier;
  private final long base;

  Seeds(UnaryOperator<String> env, UnaryOperator<String> props) {
    this.fixed = parseLong(read(env, props, "RIVULET_SEED", "rivulet.seed"), "RIVULET_SEED");
    OptionalLong runs = parseLong(read(env, props, "RIVULET_RUNS", "rivulet.runs"), "RIVULET_RUNS");
    if (runs.isPresent() && (runs.getAsLong() < 1 || runs.getAsLong() > 1_000_000)) {
      throw new IllegalArgumentException("RIVULET_RUNS must be between 1 and 1000000, got " + runs.getAsLong());
    }
    this.multiplier = (int) runs.orElse(1);
    this.base = parseLong(read(env, props, "RIVULET_BASE_SEED", "rivulet.baseSeed"), "RIVULET_BASE_SEED")
        .orElse(DEFAULT_BASE_SEED);
  }

  private static Seeds current() {
    return new Seeds(System::getenv, System::getProperty);
  }

  /**
   * The seeds of a property whose default run count is {@code baseCount}: the one replay seed when
   * {@code RIVULET_SEED} is set, otherwise {@code baseCount * RIVULET_RUNS} derived seeds.
   */
  public static List<Long> runs(int baseCount) {
    return current().list(baseCount);
  }

  /** The replay seed, when {@code RIVULET_SEED} is set. */
  public static OptionalLong fixedSeed() {
    return current().fixed;
  }

  /** The run multiplier ({@code RIVULET_RUNS}, default 1). */
  public static int multiplier() {
    return current().multiplier;
  }

  /**
   * The default list of {@code count} seeds, ignoring the environment: for tests of the harness
   * itself, whose assertions count over many seeds and must not change under {@code RIVULET_SEED}.
   */
  static List<Long> defaults(int count) {
    return new Seeds(k -> null, k -> null).list(count);
  }

  /**
   * How to rerun one seed, for failure messages: the Maven command for the test class that asks
   * (the nearest caller whose name ends in {@code Test}) in the module it was compiled in, or a
   * generic one when neither is known.
   */
  public static String replayHint(long seed) {
    Class<?> test = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
        .walk(frames -> frames.map(StackWalker.StackFrame::getDeclaringClass)
            .filter(c -> c.getSimpleName().endsWith("Test")).findFirst().orElse(null));
    String module = test == null ? null : moduleOf(test);
    if (module == null) {
      return "RIVULET_SEED=" + seed + " mvn verify -pl <module> -am -Dtest=<TestClass>" + ANY_MODULE;
    }
    return "RIVULET_SEED=" + seed + " mvn verify -pl " + module + " -am -Dtest=" + test.getSimpleName() + ANY_MODULE;
  }

  /** The Maven module whose {@code target} directory {@code c} was loaded from, or null. */
  private static String moduleOf(Class<?> c) {
    try {
      java.security.CodeSource source = c.getProtectionDomain().getCodeSource();
      String path = source == null ? null : source.getLocation().getPath();
      int target = path == null ? -1 : path.lastIndexOf("/target/");
      return target < 0 ? null : path.substring(path.lastIndexOf('/', target - 1) + 1, target);
    } catch (SecurityException e) {
      return null;
    }
  }

  List<Long> list(int baseCount) {
    if (baseCount < 1) {
      throw new IllegalArgumentException("a property needs at least one run, got " + baseCount);
    }
    if (fixed.isPresent()) {
      return List.of(fixed.getAsLong());
    }
    long n = (long) baseCount * multiplier;
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("too many runs: " + baseCount + " * " + multiplier);
    }
    List<Long> out = new ArrayList<>((int) n);
    for (long i = 0; i < n; i++) {
      out.add(mix(base + i * GOLDEN));
    }
    return out;
  }

  /** splitmix64's finalizer: a bijection that spreads consecutive inputs over all 64 bits. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static String read(UnaryOperator<String> env, UnaryOperator<String> props, String var, String prop) {
    String p = props.apply(prop);
    if (p != null && !p.isBlank()) {
      return p.trim();
    }
    String e = env.apply(var);
    return e == null || e.isBlank() ? null : e.trim();
  }

  private static OptionalLong parseLong(String s, String what) {
    if (s == null) {
      return OptionalLong.empty();
    }
    try {
      String t = s.replace("_", "");
      if (t.toLowerCase(Locale.ROOT).startsWith("0x")) {
        return OptionalLong.of(Long.parseUnsignedLong(t.substring(2), 16));
      }
      return OptionalLong.of(Long.parseLong(t));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " must be a long (decimal or 0x hex), got '" + s + "'", e);
    }
  }
}
