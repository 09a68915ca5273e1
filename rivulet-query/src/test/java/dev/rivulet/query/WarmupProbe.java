package dev.rivulet.query;

/**
 * Run in a fresh JVM by {@link WarmupTest}: creates two databases and prints the warm-up thread
 * this process started ({@code none} when it started none), whether it ended within 60 s, and how
 * many threads named like it are alive at the end.
 */
public final class WarmupProbe {
  private WarmupProbe() {}

  public static void main(String[] args) throws InterruptedException {
    Rivulet.create();
    Rivulet.create(); // a second database starts no second warm-up
    Thread t = Warmup.thread();
    StringBuilder out = new StringBuilder();
    if (t == null) {
      out.append("thread=none");
    } else {
      t.join(60_000);
      out.append("thread=").append(t.getName()).append(" daemon=").append(t.isDaemon())
          .append(" ended=").append(!t.isAlive());
    }
    long live = Thread.getAllStackTraces().keySet().stream()
        .filter(x -> x.getName().equals(Warmup.THREAD_NAME) && x.isAlive()).count();
    System.out.println(out.append(" live=").append(live));
  }
}
