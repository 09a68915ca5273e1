package dev.rivulet.bench.peers;

import java.util.Arrays;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Prints the shared generator's first outputs, rows and updates and digests over whole runs, in
 * exactly the format of {@code rivulet-bench/peers/gen-check.mjs}, so that
 * {@code diff <(node gen-check.mjs) <(java ... GenCheck)} proves both sides draw the same data.
 * Arguments: {@code [rows=100000] [updates=10000] [seed]}.
 */
public final class GenCheck {
  private static final int SHOW = 5;

  private GenCheck() {}

  public static void main(String[] args) {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int count = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    long seed = args.length > 2 ? Long.parseLong(args[2]) : PeerData.DEFAULT_SEED;
    System.out.print(text(rows, count, seed));
  }

  /** What {@link #main} prints for {@code rows}, {@code count} updates per stream and {@code seed}. */
  public static String text(int rows, int count, long seed) {
    StringBuilder out = new StringBuilder();
    for (long s : new long[] {0, seed}) {
      SplitMix64 r = new SplitMix64(s);
      out.append("splitmix64 ").append(s).append(": ").append(IntStream.range(0, 3)
          .mapToObj(i -> String.format("%016x", r.next())).collect(Collectors.joining(" "))).append('\n');
    }
    SplitMix64 r = new SplitMix64(seed);
    out.append("nextInt(100) x10: ").append(IntStream.range(0, 10).mapToObj(i -> String.valueOf(r.nextInt(100)))
        .collect(Collectors.joining(" "))).append('\n');

    PeerData.Issue[] data = PeerData.issues(rows, seed);
    int h = 0;
    for (PeerData.Issue i : data) {
      String line = "issue " + i.id() + " " + i.status() + " " + i.priority() + " " + i.created() + " "
          + i.assignee() + " " + i.projectId() + " " + i.title();
      h = show(out, h, line, i.id());
    }
    out.append("digest issues ").append(rows).append(": ").append(h).append('\n');
    h = 0;
    PeerData.Project[] projects = PeerData.projects(seed);
    for (PeerData.Project p : projects) {
      h = show(out, h, "project " + p.id() + " " + p.name() + " " + p.archived(), p.id());
    }
    out.append("digest projects: ").append(h).append(" archived=")
        .append(Arrays.stream(projects).filter(PeerData.Project::archived).count()).append('\n');
    out.append("open issues: ").append(Arrays.stream(data).filter(PeerData.Issue::isOpen).count()).append('\n');

    PeerData.Issue[] cur = null;
    for (String[] wm : new String[][] {{"W1", "random"}, {"W1", "edge"}, {"W2", "mixed"}, {"W3", "mixed"}}) {
      if (!wm[1].equals("edge")) {
        cur = data.clone();
      }
      PeerData.Updates s = PeerData.updates(wm[0], wm[1], cur, seed);
      h = 0;
      for (int i = 0; i < count; i++) {
        PeerData.Issue after = s.next();
        PeerData.Issue before = cur[after.id()];
        String prefix = "update " + wm[0] + " " + wm[1] + " " + after.id();
        String line = before.assignee() != after.assignee()
            ? prefix + " assignee " + before.assignee() + "->" + after.assignee()
            : prefix + " priority " + before.priority() + "->" + after.priority();
        h = show(out, h, line, i);
        s.applied(after);
      }
      out.append("digest updates ").append(wm[0]).append(' ').append(wm[1]).append(' ').append(count)
          .append(": ").append(h).append('\n');
    }
    out.append("top3 open after W3: ").append(Arrays.stream(cur).filter(PeerData.Issue::isOpen)
        .sorted(PeerData.W1_ORDER).limit(3).map(i -> i.id() + "/" + i.priority())
        .collect(Collectors.joining(" "))).append('\n');
    w6(out, data, count, seed);
    w4(out, data, rows, count, seed);
    w5(out, rows, count, seed);
    return out.toString();
  }

  /** W6: random then edge on one fresh copy of the issues; an update changes the title. */
  private static void w6(StringBuilder out, PeerData.Issue[] data, int count, long seed) {
    PeerData.Issue[] cur = data.clone();
    for (String mix : new String[] {"random", "edge"}) {
      PeerData.Updates s = PeerData.updates("W6", mix, cur, seed);
      int h = 0;
      for (int i = 0; i < count; i++) {
        PeerData.Issue after = s.next();
        h = show(out, h, "update W6 " + mix + " " + after.id() + " title " + cur[after.id()].title() + "->"
            + after.title(), i);
        s.applied(after);
      }
      out.append("digest updates W6 ").append(mix).append(' ').append(count).append(": ").append(h).append('\n');
    }
    out.append("top3 open after W6: ").append(Arrays.stream(cur).filter(PeerData.Issue::isOpen)
        .sorted(PeerData.W6_ORDER).limit(3).map(i -> i.id() + "/" + i.title())
        .collect(Collectors.joining(" "))).append('\n');
  }

  /** W4: comments on fresh issues, then its four mixes in order on one {@link W4State}. */
  private static void w4(StringBuilder out, PeerData.Issue[] data, int rows, int count, long seed) {
    W4State w4 = new W4State(data, PeerComments.comments(rows, seed));
    int h = 0;
    for (int i = 0; i < w4.commentCount(); i++) {
      h = show(out, h, commentLine(w4.comment(i)), i);
    }
    out.append("digest comments ").append(w4.commentCount()).append(": ").append(h).append(" visible=")
        .append(Arrays.stream(w4.visible()).limit(5).mapToObj(String::valueOf).collect(Collectors.joining(",")))
        .append('\n');
    for (String mix : PeerComments.MIXES) {
      PeerComments.Updates s = PeerComments.updates(mix, w4, seed);
      h = 0;
      for (int i = 0; i < count; i++) {
        PeerComments.Change c = s.next();
        String line = c.isInsert() ? "insert W4 " + mix + " " + commentLine(c.after())
            : "move W4 " + mix + " " + c.after().id() + " " + c.before().issueId() + "->" + c.after().issueId();
        h = show(out, h, line, i);
        s.applied(c);
      }
      out.append("digest updates W4 ").append(mix).append(' ').append(count).append(": ").append(h).append('\n');
    }
    out.append("newest of visible after W4: ").append(IntStream.range(0, 5).mapToObj(k -> {
      PeerComments.Comment c = w4.newest(k);
      return c == null ? "-" : String.valueOf(c.id());
    }).collect(Collectors.joining(" "))).append('\n');
  }

  /** W5: tasks and members, then its mixed stream on them. */
  private static void w5(StringBuilder out, int rows, int count, long seed) {
    PeerTasks.Task[] tasks = PeerTasks.tasks(rows, seed);
    PeerTasks.Member[] members = PeerTasks.members(rows, seed);
    int h = 0;
    int unassigned = 0;
    for (PeerTasks.Task t : tasks) {
      h = show(out, h, taskLine(t), t.id());
      unassigned += t.assignee() == null ? 1 : 0;
    }
    out.append("digest tasks ").append(rows).append(": ").append(h).append(" unassigned=").append(unassigned)
        .append('\n');
    h = 0;
    int active = 0;
    for (PeerTasks.Member m : members) {
      h = show(out, h, memberLine(m), m.id());
      active += m.active() ? 1 : 0;
    }
    out.append("digest members ").append(members.length).append(": ").append(h).append(" active=").append(active)
        .append('\n');
    PeerTasks.Updates s = PeerTasks.updates(tasks, members, seed);
    h = 0;
    for (int i = 0; i < count; i++) {
      PeerTasks.Change c = s.next();
      h = show(out, h, "update W5 mixed " + (c.isTask() ? taskLine(c.task()) : memberLine(c.member())), i);
      s.applied(c);
    }
    out.append("digest updates W5 mixed ").append(count).append(": ").append(h).append('\n');
    out.append("top3 visible after W5: ").append(java.util.Arrays.stream(tasks)
        .filter(t -> PeerTasks.visible(t, members)).sorted(PeerTasks.ORDER).limit(3)
        .map(t -> t.id() + "/" + t.priority()).collect(Collectors.joining(" "))).append('\n');
  }

  private static String taskLine(PeerTasks.Task t) {
    return "task " + t.id() + " " + t.priority() + " " + (t.assignee() == null ? "null" : t.assignee()) + " " + t.title();
  }

  private static String memberLine(PeerTasks.Member m) {
    return "member " + m.id() + " " + m.name() + " " + m.active();
  }

  private static String commentLine(PeerComments.Comment c) {
    return "comment " + c.id() + " " + c.issueId() + " " + c.created() + " " + c.body();
  }

  /** Prints {@code line} when it is among the first {@link #SHOW}; chains it and a newline into {@code h}. */
  private static int show(StringBuilder out, int h, String line, int index) {
    if (index < SHOW) {
      out.append(line).append('\n');
    }
    for (int i = 0; i < line.length(); i++) {
      h = 31 * h + line.charAt(i);
    }
    return 31 * h + '\n';
  }
}
