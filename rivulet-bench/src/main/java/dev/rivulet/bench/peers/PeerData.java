package dev.rivulet.bench.peers;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.UnaryOperator;

/**
 * The shared peer-benchmark tables and update streams, the Java twin of {@code
 * rivulet-bench/peers/gen.mjs}: the same seed gives the same rows and the same updates on both
 * sides (see the spec in {@code rivulet-bench/peers/README.md}; {@link GenCheck} prints both
 * sides' outputs for a diff). Plain records, no engine types, so any runner can map them.
 */
public final class PeerData {
  public static final long DEFAULT_SEED = 20_240_601L;
  public static final int USERS = 10_000;
  public static final int PROJECTS = 1_000;
  public static final int LIMIT = 50;
  public static final int EDGE_SPAN = 100;
  public static final String OPEN = "open";
  static final String[] STATUSES = {"open", "closed", "review"};
  static final String[] WORDS = {"crash", "login", "slow", "export", "layout", "timeout", "typo", "cache"};

  public record Issue(int id, String status, int priority, String title, long created, int assignee, int projectId) {
    public boolean isOpen() {
      return OPEN.equals(status);
    }

    Issue withPriority(int p) {
      return new Issue(id, status, p, title, created, assignee, projectId);
    }

    Issue withAssignee(int a) {
      return new Issue(id, status, priority, title, created, a, projectId);
    }

    Issue withTitle(String t) {
      return new Issue(id, status, priority, t, created, assignee, projectId);
    }
  }

  public record User(int id, String name) {}

  public record Project(int id, String name, boolean archived) {}

  /** W1's order: priority desc, created asc, id asc. */
  public static final Comparator<Issue> W1_ORDER = Comparator.comparingInt((Issue r) -> -r.priority())
      .thenComparingLong(Issue::created).thenComparingInt(Issue::id);

  /** W6's order: title asc ({@link String#compareTo}, UTF-16 units, as SQL's binary collation), id asc. */
  public static final Comparator<Issue> W6_ORDER = Comparator.comparing(Issue::title).thenComparingInt(Issue::id);

  private PeerData() {}

  /** Seed of a stream: {@code seed + tag}. */
  static long tag(String stream) {
    return switch (stream) {
      case "issues" -> 0;
      case "W1_random" -> 1;
      case "W1_edge" -> 2;
      case "W2_mixed" -> 3;
      case "W3_mixed" -> 4;
      case "W4_a" -> 5;
      case "W4_b" -> 6;
      case "W4_c" -> 7;
      case "W4_c2" -> 8;
      case "W5_mixed" -> 9;
      case "W6_random" -> 10;
      case "W6_edge" -> 11;
      case "projects" -> 100;
      case "comments" -> 101;
      case "tasks" -> 102;
      case "members" -> 103;
      default -> throw new IllegalArgumentException("no stream " + stream);
    };
  }

  /** {@code n} issues; per row the draws are status, priority, title word, created jitter, assignee, project. */
  public static Issue[] issues(int n, long seed) {
    SplitMix64 rnd = new SplitMix64(seed + tag("issues"));
    Issue[] rows = new Issue[n];
    for (int id = 0; id < n; id++) {
      String status = STATUSES[rnd.nextInt(3)];
      int priority = rnd.nextInt(100);
      String title = WORDS[rnd.nextInt(8)] + " in module " + (id % 97);
      long created = 1_700_000_000L + 16L * id + rnd.nextInt(16);
      int assignee = rnd.nextInt(USERS);
      int project = rnd.nextInt(PROJECTS);
      rows[id] = new Issue(id, status, priority, title, created, assignee, project);
    }
    return rows;
  }

  public static User[] users() {
    User[] users = new User[USERS];
    for (int u = 0; u < USERS; u++) {
      users[u] = new User(u, "user-" + u);
    }
    return users;
  }

  /** {@link #PROJECTS} projects; archived when {@code nextInt(5) == 0}. */
  public static Project[] projects(long seed) {
    SplitMix64 rnd = new SplitMix64(seed + tag("projects"));
    Project[] out = new Project[PROJECTS];
    for (int p = 0; p < PROJECTS; p++) {
      out[p] = new Project(p, "project-" + p, rnd.nextInt(5) == 0);
    }
    return out;
  }

  /**
   * Single-row updates over {@code data} (indexed by id, owned by the caller). {@link #next}
   * returns the new version of one row without changing the data; {@link #applied} stores it.
   */
  public interface Updates {
    Issue next();

    void applied(Issue after);
  }

  /**
   * The update stream of {@code workload} ("W1", "W2", "W3", "W6") and {@code mix}; W4's are
   * {@link PeerComments#updates}, W5's {@link PeerTasks#updates}.
   */
  public static Updates updates(String workload, String mix, Issue[] data, long seed) {
    String key = workload + "_" + mix;
    if (!key.matches("W[1236]_.*")) {
      throw new IllegalArgumentException("no issue update stream " + key + " (W4's are PeerComments.updates)");
    }
    SplitMix64 rnd = new SplitMix64(seed + tag(key));
    switch (key) {
      case "W1_edge" -> {
        return edge(data, rnd, new OpenOrder(data, W1_ORDER, 100, r -> 99 - r.priority()), r -> newPriority(r, rnd));
      }
      case "W6_edge" -> {
        return edge(data, rnd, new OpenOrder(data, W6_ORDER, 1, r -> 0), r -> newTitle(r, rnd));
      }
      default -> { }
    }
    boolean titles = key.equals("W6_random");
    boolean assigneeToo = !key.equals("W1_random") && !titles;
    return new Updates() {
      @Override
      public Issue next() {
        Issue r = data[rnd.nextInt(data.length)];
        if (titles) {
          return newTitle(r, rnd);
        }
        if (assigneeToo && rnd.nextInt(10) == 0) {
          return r.withAssignee((r.assignee() + 1 + rnd.nextInt(USERS - 1)) % USERS);
        }
        return newPriority(r, rnd);
      }

      @Override
      public void applied(Issue after) {
        data[after.id()] = after;
      }
    };
  }

  private static Issue newPriority(Issue r, SplitMix64 rnd) {
    return r.withPriority((r.priority() + 1 + rnd.nextInt(99)) % 100);
  }

  /** Another word than the title's, in the generator's form (the module stays {@code id % 97}). */
  private static Issue newTitle(Issue r, SplitMix64 rnd) {
    int space = r.title().indexOf(' ');
    int w = space < 0 ? -1 : Arrays.asList(WORDS).indexOf(r.title().substring(0, space));
    if (w < 0) {
      throw new IllegalArgumentException("title of issue " + r.id() + " does not start with a word: " + r.title());
    }
    return r.withTitle(WORDS[(w + 1 + rnd.nextInt(WORDS.length - 1)) % WORDS.length] + " in module " + r.id() % 97);
  }

  /**
   * An open row at position {@code nextInt(min(150, open rows))} of {@code open}'s order gets {@code
   * change}d (W1: a new priority, W6: a new title).
   */
  private static Updates edge(Issue[] data, SplitMix64 rnd, OpenOrder open, UnaryOperator<Issue> change) {
    return new Updates() {
      @Override
      public Issue next() {
        return change.apply(open.at(rnd.nextInt(Math.min(LIMIT + EDGE_SPAN, open.size()))));
      }

      @Override
      public void applied(Issue after) {
        open.apply(data[after.id()], after);
        data[after.id()] = after;
      }
    };
  }
}
