package dev.rivulet.replica;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Classifies the SQL statements a replica runs by their first keyword (after comments): the ones
 * that may change the schema (CREATE, ALTER, DROP, RENAME, TRUNCATE) make the replica re-read the
 * tables ({@link SchemaSync}); transaction control (BEGIN, COMMIT, SAVEPOINT...) is refused by
 * {@link SqliteReplica#execute}. Stateless.
 */
final class SchemaStatements {
  private static final Pattern TRANSACTION_CONTROL = Pattern.compile(
      "\\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|START\\s+TRANSACTION|SET\\s+AUTOCOMMIT)\\b",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern FIRST_WORD = Pattern.compile(
      "(?:\\s+|--[^\\n]*(?:\\n|$)|/\\*.*?\\*/)*([A-Za-z]+)", Pattern.DOTALL);

  private SchemaStatements() {}

  /** Whether {@code sql} may change the schema (or, for TRUNCATE, empty a table without firing triggers). */
  static boolean changesSchema(String sql) {
    String w = firstWord(sql);
    return w.equals("CREATE") || w.equals("ALTER") || w.equals("DROP") || w.equals("RENAME") || w.equals("TRUNCATE");
  }

  /** Whether {@code sql} controls the transaction (BEGIN, COMMIT, END, ROLLBACK, SAVEPOINT, RELEASE...). */
  static boolean controlsTransaction(String sql) {
    return TRANSACTION_CONTROL.matcher(sql).lookingAt();
  }

  /** Whether {@code sql} is an ALTER statement (SQLite refuses some while a trigger names the columns). */
  static boolean alters(String sql) {
    return firstWord(sql).equals("ALTER");
  }

  /** The statement's first keyword, upper case ("" when there is none). */
  static String firstWord(String sql) {
    Matcher m = FIRST_WORD.matcher(sql);
    return m.lookingAt() ? m.group(1).toUpperCase(Locale.ROOT) : "";
  }
}
