package dev.rivulet.replica;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** The two embedded backends for the replica's tests, over file databases (and their own text type). */
enum Backends {
  SQLITE("TEXT"),
  H2("VARCHAR");

  final String text;

  Backends(String text) {
    this.text = text;
  }

  /** The URL of a file database named {@code name} in {@code dir}. */
  String url(Path dir, String name) {
    Path file = dir.resolve(name);
    return this == SQLITE ? "jdbc:sqlite:" + file + ".db" : "jdbc:h2:file:" + file + ";DATABASE_TO_LOWER=TRUE";
  }

  SqliteReplica open(String url) throws SQLException {
    return this == SQLITE ? SqliteReplica.open(url) : H2Replica.open(url);
  }

  /** A plain connection (a reader, or the test's own writer when no replica runs). */
  Connection connect(String url) throws SQLException {
    return DriverManager.getConnection(url);
  }

  /** Runs {@code statements} (";"-separated, TEXT written for the backend's text type) on a fresh connection. */
  void run(String url, String statements) throws SQLException {
    try (Connection c = connect(url); Statement st = c.createStatement()) {
      for (String s : statements.replace("TEXT", text).split(";")) {
        st.execute(s);
      }
    }
  }

  /** {@code sql} with TEXT written for the backend's text type. */
  String ddl(String sql) {
    return sql.replace("TEXT", text);
  }
}
