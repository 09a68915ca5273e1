package dev.rivulet.bench.peers;

import java.util.Comparator;

/**
 * W5's tables and update stream, the Java twin of the W5 part of {@code
 * rivulet-bench/peers/gen.mjs} (spec in {@code rivulet-bench/peers/README.md}): {@code n} tasks,
 * 60% of them unassigned (a NULL key), left-joined to {@link #memberCount(int) n / 100} members,
 * some inactive. Plain records, no engine types.
 */
public final class PeerTasks {
  /** Rows shown: the first 50 visible tasks by priority desc, id asc. */
  public static final int LIMIT = 50;

  /** A task; {@code assignee} is null when unassigned. */
  public record Task(int id, int priority, String title, Integer assignee) {}

  public record Member(int id, String name, boolean active) {}

  /** One update: exactly one of {@code task} and {@code member} is set, the new version of that row. */
  public record Change(Task task, Member member) {
    public boolean isTask() {
      return task != null;
    }
  }

  /** W5's order: priority desc, id asc. */
  public static final Comparator<Task> ORDER = Comparator.comparingInt((Task t) -> -t.priority())
      .thenComparingInt(Task::id);

  private PeerTasks() {}

  /** Members at {@code n} tasks: {@code max(2, n / 100)}. */
  public static int memberCount(int n) {
    return Math.max(2, n / 100);
  }

  /** {@code n} tasks; per row the draws are priority, title word, assigned (nextInt(5) >= 3), member. */
  public static Task[] tasks(int n, long seed) {
    SplitMix64 rnd = new SplitMix64(seed + PeerData.tag("tasks"));
    int m = memberCount(n);
    Task[] out = new Task[n];
    for (int id = 0; id < n; id++) {
      int priority = rnd.nextInt(100);
      String title = PeerData.WORDS[rnd.nextInt(8)] + " task " + id;
      boolean assigned = rnd.nextInt(5) >= 3;
      int member = rnd.nextInt(m);
      out[id] = new Task(id, priority, title, assigned ? member : null);
    }
    return out;
  }

  /** The members at {@code n} tasks; active unless {@code nextInt(4) == 0}. */
  public static Member[] members(int n, long seed) {
    SplitMix64 rnd = new SplitMix64(seed + PeerData.tag("members"));
    Member[] out = new Member[memberCount(n)];
    for (int id = 0; id < out.length; id++) {
      out[id] = new Member(id, "member-" + id, rnd.nextInt(4) != 0);
    }
    return out;
  }

  /** Whether the task passes W5's filter: unassigned, or its member is active. */
  public static boolean visible(Task t, Member[] members) {
    return t.assignee() == null || members[t.assignee()].active();
  }

  /** W5's update stream: {@link #next} draws a change without storing it; {@link #applied} stores it. */
  public interface Updates {
    Change next();

    void applied(Change change);
  }

  /**
   * The {@code mixed} stream over {@code tasks} and {@code members} (owned by the caller):
   * {@code k = nextInt(10)}; {@code k < 5}: task {@code nextInt(n)} gets a new priority; {@code k
   * < 8}: task {@code nextInt(n)} changes assignee (NULL to {@code nextInt(m)}; else {@code
   * nextInt(2) == 0} to NULL, or to another member); else member {@code nextInt(m)} flips active.
   */
  public static Updates updates(Task[] tasks, Member[] members, long seed) {
    SplitMix64 rnd = new SplitMix64(seed + PeerData.tag("W5_mixed"));
    int n = tasks.length, m = members.length;
    return new Updates() {
      @Override
      public Change next() {
        int k = rnd.nextInt(10);
        if (k >= 8) {
          Member u = members[rnd.nextInt(m)];
          return new Change(null, new Member(u.id(), u.name(), !u.active()));
        }
        Task t = tasks[rnd.nextInt(n)];
        if (k < 5) {
          int p = (t.priority() + 1 + rnd.nextInt(99)) % 100;
          return new Change(new Task(t.id(), p, t.title(), t.assignee()), null);
        }
        Integer a;
        if (t.assignee() == null) {
          a = rnd.nextInt(m);
        } else if (rnd.nextInt(2) == 0) {
          a = null;
        } else {
          a = (t.assignee() + 1 + rnd.nextInt(m - 1)) % m;
        }
        return new Change(new Task(t.id(), t.priority(), t.title(), a), null);
      }

      @Override
      public void applied(Change c) {
        if (c.isTask()) {
          tasks[c.task().id()] = c.task();
        } else {
          members[c.member().id()] = c.member();
        }
      }
    };
  }
}
