package dev.rivulet.bench;

/** Command-line argument checks shared by the runners; each failure names the flag. */
public final class Args {
  private Args() {}

  /** The value after {@code flag} at position {@code i}. */
  public static String value(String[] args, int i, String flag) {
    if (i >= args.length) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return args[i];
  }

  public static int positive(String s, String flag) {
    int n = nonNegative(s, flag);
    if (n == 0) {
      throw new IllegalArgumentException(flag + " must be positive, got " + s);
    }
    return n;
  }

  public static int nonNegative(String s, String flag) {
    int n;
    try {
      n = Integer.parseInt(s.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + " needs a whole number, got '" + s + "'");
    }
    if (n < 0) {
      throw new IllegalArgumentException(flag + " must not be negative, got " + s);
    }
    return n;
  }
}
