package dev.rivulet.replica.cli;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;

/** The demo's issue-tracker schema and its seed data, written with plain JDBC. */
final class TrackerDb {
  static final String[] PROJECTS = {"core", "web", "mobile", "infra", "docs", "billing"};
  static final String[] USERS = {"ann", "bob", "chen", "dana", "eve", "farid", "gita", "hugo", "ines", "jon"};
  static final String[] WORDS = {"crash", "leak", "slow", "typo", "timeout", "login", "export", "cache",
      "retry", "render", "sync", "upload", "search", "layout", "deadlock", "config"};

  private static final String[] DDL = {
      "CREATE TABLE IF NOT EXISTS projects (id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
      "CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
      "CREATE TABLE IF NOT EXISTS issues (id INTEGER PRIMARY KEY, project INTEGER NOT NULL REFERENCES projects(id),"
          + " title TEXT NOT NULL, status TEXT NOT NULL, priority INTEGER NOT NULL,"
          + " assignee INTEGER REFERENCES users(id) ON DELETE SET NULL)",
      "CREATE TABLE IF NOT EXISTS comments (id INTEGER PRIMARY KEY,"
          + " issue INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,"
          + " author INTEGER REFERENCES users(id), body TEXT NOT NULL)"};

  private TrackerDb() {}

  /** Creates the tables when missing and seeds {@code issues} issues when the database has no project yet. */
  static void createAndSeed(Connection c, int issues, Random rnd) throws SQLException {
    try (Statement st = c.createStatement()) {
      for (String ddl : DDL) {
        st.execute(ddl);
      }
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM projects")) {
        rs.next();
        if (rs.getLong(1) > 0) {
          return; // an existing demo database: keep its data
        }
      }
    }
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false);
    try {
      insertNames(c, "projects", PROJECTS);
      insertNames(c, "users", USERS);
      try (PreparedStatement issue = c.prepareStatement("INSERT INTO issues VALUES (?, ?, ?, ?, ?, ?)");
          PreparedStatement comment = c.prepareStatement("INSERT INTO comments (issue, author, body) VALUES (?, ?, ?)")) {
        for (int id = 1; id <= issues; id++) {
          issue.setInt(1, id);
          issue.setInt(2, 1 + rnd.nextInt(PROJECTS.length));
          issue.setString(3, title(rnd));
          issue.setString(4, rnd.nextInt(10) < 7 ? "open" : "closed");
          issue.setInt(5, rnd.nextInt(100));
          issue.setObject(6, rnd.nextInt(8) == 0 ? null : 1 + rnd.nextInt(USERS.length));
          issue.executeUpdate();
          for (int k = rnd.nextInt(4); k > 0; k--) {
            comment.setInt(1, id);
            comment.setInt(2, 1 + rnd.nextInt(USERS.length));
            comment.setString(3, "seed comment");
            comment.executeUpdate();
          }
        }
      }
      c.commit();
    } finally {
      c.setAutoCommit(auto);
    }
  }

  static String title(Random rnd) {
    return WORDS[rnd.nextInt(WORDS.length)] + " in " + WORDS[rnd.nextInt(WORDS.length)];
  }

  private static void insertNames(Connection c, String table, String[] names) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
      for (int i = 0; i < names.length; i++) {
        ps.setInt(1, i + 1);
        ps.setString(2, names[i]);
        ps.executeUpdate();
      }
    }
  }
}
