package dev.rivulet.replica;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A backend of the replica's contract suite with its SQL dialect: the URL of a named in-memory
 * database, the 3-table schema (projects, issues, comments with a cascading foreign key; nullable
 * columns), its first rows, and an upsert of an issue.
 */
enum ReplicaDialect {
  SQLITE("TEXT", "INSERT INTO issues VALUES (?, 0, 'open', ?, NULL) ON CONFLICT(id) DO UPDATE SET"
      + " status = 'open', priority = excluded.priority"),
  H2("VARCHAR", "MERGE INTO issues KEY(id) VALUES (?, 0, 'open', ?, NULL)");

  final String text;
  final String upsert;

  ReplicaDialect(String text, String upsert) {
    this.text = text;
    this.upsert = upsert;
  }

  String url(String name) {
    return this == SQLITE ? "jdbc:sqlite:file:" + name + "?mode=memory&cache=shared"
        : "jdbc:h2:mem:" + name + ";DATABASE_TO_LOWER=TRUE";
  }

  String url(long seed) {
    return url("replica" + Long.toUnsignedString(seed));
  }

  String schema() {
    return ("CREATE TABLE projects (id INTEGER PRIMARY KEY, name TEXT);"
        + "CREATE TABLE issues (id INTEGER PRIMARY KEY, project INTEGER,"
        + " status TEXT NOT NULL, priority INTEGER, title TEXT UNIQUE);"
        + "CREATE TABLE comments (id INTEGER PRIMARY KEY, issue INTEGER REFERENCES issues(id) ON DELETE CASCADE,"
        + " body TEXT)").replace("TEXT", text);
  }

  /** Creates the schema and first rows in the database at {@code url}; the connection keeps it alive. */
  Connection create(String url) throws SQLException {
    Connection c = DriverManager.getConnection(url);
    try (Statement st = c.createStatement()) {
      if (this == SQLITE) {
        st.execute("PRAGMA foreign_keys = ON");
      }
      for (String s : schema().split(";")) {
        st.execute(s);
      }
      st.execute("INSERT INTO projects VALUES (0, 'core'), (1, 'web'), (2, NULL)");
      st.execute("INSERT INTO issues VALUES (1, 1, 'open', 5, 'a'), (2, 1, 'closed', 7, 'b'), (3, 2, 'open', 9, NULL)");
      st.execute("INSERT INTO comments VALUES (10, 1, 'x'), (11, 3, 'y')");
    }
    return c;
  }

  Connection create(long seed) throws SQLException {
    return create(url(seed));
  }

  SqliteReplica open(String url, ReplicaOptions options) throws SQLException {
    return this == SQLITE ? SqliteReplica.open(url, options) : H2Replica.open(url, options);
  }

  SqliteReplica open(long seed) throws SQLException {
    return open(url(seed), ReplicaOptions.eager());
  }
}
