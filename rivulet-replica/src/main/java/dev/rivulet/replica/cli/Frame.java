package dev.rivulet.replica.cli;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.List;

/** The demo's screen as text lines: the two live tables and the two footer lines. Immutable. */
record Frame(List<Row> top, List<Row> projects, Stats stats) {

  List<String> lines() {
    List<String> out = new ArrayList<>();
    out.add("rivulet demo: live queries over embedded SQLite, updated per commit (Ctrl-C to stop)");
    out.add("");
    out.add("Top " + TrackerQueries.TOP + " open issues by priority");
    out.add(String.format("%6s %4s  %-8s %-24s %-8s %8s", "id", "prio", "project", "title", "assignee", "comments"));
    for (Row r : top) {
      out.add(String.format("%6s %4s  %-8s %-24s %-8s %8s", r.get(0), r.get(1), r.get(2), clip(r.get(3), 24),
          r.get(4) == null ? "-" : r.get(4), r.get(5)));
    }
    for (int i = top.size(); i < TrackerQueries.TOP; i++) {
      out.add("");
    }
    out.add("");
    out.add("Open issues per project");
    out.add(String.format("%-8s %6s %7s %11s %4s", "project", "open", "urgent", "unassigned", "top"));
    for (Row r : projects) {
      out.add(String.format("%-8s %6s %7s %11s %4s", r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)));
    }
    out.add("");
    out.addAll(stats.footer());
    return out;
  }

  /** One line: the footer, the first top issues and the open counts per project. */
  String summary() {
    StringBuilder sb = new StringBuilder(String.join("  ", stats.footer())).append(" | top:");
    for (int i = 0; i < Math.min(3, top.size()); i++) {
      Row r = top.get(i);
      sb.append(" #").append(r.get(0)).append(" p").append(r.get(1))
          .append(' ').append(r.get(4) == null ? "-" : r.get(4)).append(" (").append(r.get(5)).append("c)");
    }
    sb.append(" | open:");
    for (Row r : projects) {
      sb.append(' ').append(r.get(0)).append('=').append(r.get(1));
    }
    return sb.toString();
  }

  private static String clip(Object o, int width) {
    String s = String.valueOf(o);
    return s.length() <= width ? s : s.substring(0, width - 1) + "~";
  }
}
