package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.and;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.gte;
import static dev.rivulet.query.Exprs.isNotNull;
import static dev.rivulet.query.Exprs.isNull;
import static dev.rivulet.query.Exprs.like;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.lt;
import static dev.rivulet.query.Exprs.lte;
import static dev.rivulet.query.Exprs.max;
import static dev.rivulet.query.Exprs.min;
import static dev.rivulet.query.Exprs.ne;
import static dev.rivulet.query.Exprs.not;
import static dev.rivulet.query.Exprs.or;
import static dev.rivulet.query.Exprs.sum;

import dev.rivulet.query.Expr;
import dev.rivulet.query.Query;
import dev.rivulet.query.QueryIR;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BinaryOperator;
import java.util.function.Function;

/**
 * Random live queries over {@link ReplicaDialect}'s schema, each with its SQL: filters
 * (comparisons, IS NULL, LIKE, AND / OR / NOT), inner and left joins on the foreign key, grouped
 * and whole-table aggregates, ordered and limited windows (ties broken by the key), and includes
 * (an ordered, limited array of comments, the referenced project or issue, a concatenation of
 * comment bodies, a live collection of comments). Queries name the tables with aliases i
 * (issues), c (comments) and p (projects) in both forms.
 */
final class RandomLiveQueries {
  private RandomLiveQueries() {}

  /** A predicate in both forms. */
  record Pred(Expr expr, String sql) {}

  static List<LiveCase> generate(Random r, int n) {
    List<LiveCase> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(switch (r.nextInt(7)) {
        case 0 -> filter(r);
        case 1 -> join(r);
        case 2 -> grouped(r);
        case 3 -> window(r);
        case 4 -> commentsWithIssue(r);
        case 5 -> projectsWithIssues(r);
        default -> issuesWithIncludes(r);
      });
    }
    return out;
  }

  /** A random predicate over issues (alias i). */
  static Pred issuePred(Random r, int depth) {
    if (depth > 0 && r.nextInt(3) == 0) {
      Pred a = issuePred(r, depth - 1);
      return switch (r.nextInt(3)) {
        case 0 -> {
          Pred b = issuePred(r, depth - 1);
          yield new Pred(and(a.expr(), b.expr()), "(" + a.sql() + " AND " + b.sql() + ")");
        }
        case 1 -> {
          Pred b = issuePred(r, depth - 1);
          yield new Pred(or(a.expr(), b.expr()), "(" + a.sql() + " OR " + b.sql() + ")");
        }
        default -> new Pred(not(a.expr()), "NOT (" + a.sql() + ")");
      };
    }
    int v = r.nextInt(10);
    return switch (r.nextInt(7)) {
      case 0 -> compare(r, "i.priority", v);
      case 1 -> new Pred(eq(col("i.project"), lit(v % 3)), "i.project = " + v % 3);
      case 2 -> {
        String s = r.nextBoolean() ? "open" : "closed";
        yield new Pred(eq(col("i.status"), lit(s)), "i.status = '" + s + "'");
      }
      case 3 -> r.nextBoolean() ? new Pred(isNull(col("i.title")), "i.title IS NULL")
          : new Pred(isNotNull(col("i.title")), "i.title IS NOT NULL");
      case 4 -> {
        String pattern = List.of("t1%", "%2", "t_", "a%", "%").get(r.nextInt(5));
        yield new Pred(like(col("i.title"), lit(pattern)), "i.title LIKE '" + pattern + "'");
      }
      case 5 -> new Pred(isNull(col("i.priority")), "i.priority IS NULL");
      default -> compare(r, "i.id", v);
    };
  }

  private static Pred compare(Random r, String column, int v) {
    List<String> ops = List.of("=", "<>", "<", "<=", ">", ">=");
    List<BinaryOperator<Expr>> exprs = List.of((a, b) -> eq(a, b), (a, b) -> ne(a, b), (a, b) -> lt(a, b),
        (a, b) -> lte(a, b), (a, b) -> gt(a, b), (a, b) -> gte(a, b));
    int k = r.nextInt(ops.size());
    return new Pred(exprs.get(k).apply(col(column), lit(v)), column + " " + ops.get(k) + " " + v);
  }

  private static Function<SqliteReplica, Query> from(String alias, String table) {
    return rep -> Query.from(alias, LiveCase.table(rep, table));
  }

  private static LiveCase filter(Random r) {
    Pred p = issuePred(r, 2);
    String sql = "SELECT i.id, i.project, i.status, i.priority, i.title FROM issues i WHERE " + p.sql();
    return new LiveCase("filter: " + sql, rep -> Query.from("i", LiveCase.table(rep, "issues")).where(p.expr())
        .select(Query.as("id", col("i.id")), Query.as("project", col("i.project")), Query.as("status", col("i.status")),
            Query.as("priority", col("i.priority")), Query.as("title", col("i.title"))),
        false, LiveCase.flat(sql));
  }

  private static LiveCase join(Random r) {
    Pred p = issuePred(r, 1);
    if (r.nextBoolean()) {
      String sql = "SELECT c.id, c.body, i.id, i.priority FROM comments c JOIN issues i ON c.issue = i.id WHERE "
          + p.sql();
      return new LiveCase("inner join: " + sql, rep -> Query.from("c", LiveCase.table(rep, "comments"))
          .innerJoin("i", LiveCase.table(rep, "issues"), Query.on("c.issue", "i.id")).where(p.expr())
          .select(Query.as("id", col("c.id")), Query.as("body", col("c.body")), Query.as("issue", col("i.id")),
              Query.as("priority", col("i.priority"))),
          false, LiveCase.flat(sql));
    }
    String sql = "SELECT i.id, i.status, c.id, c.body FROM issues i LEFT JOIN comments c ON c.issue = i.id WHERE "
        + p.sql();
    return new LiveCase("left join: " + sql, rep -> Query.from("i", LiveCase.table(rep, "issues"))
        .leftJoin("c", LiveCase.table(rep, "comments"), Query.on("c.issue", "i.id")).where(p.expr())
        .select(Query.as("id", col("i.id")), Query.as("status", col("i.status")), Query.as("comment", col("c.id")),
            Query.as("body", col("c.body"))),
        false, LiveCase.flat(sql));
  }

  private static LiveCase grouped(Random r) {
    Pred p = issuePred(r, 1);
    switch (r.nextInt(3)) {
      case 0 -> {
        String key = r.nextBoolean() ? "project" : "status";
        String sql = "SELECT i." + key + ", count(*), sum(i.priority), min(i.priority), max(i.priority)"
            + " FROM issues i WHERE " + p.sql() + " GROUP BY i." + key;
        return new LiveCase("grouped: " + sql, rep -> Query.from("i", LiveCase.table(rep, "issues")).where(p.expr())
            .groupBy(col("i." + key))
            .select(Query.as("k", col("i." + key)), Query.as("n", count()), Query.as("total", sum(col("i.priority"))),
                Query.as("low", min(col("i.priority"))), Query.as("high", max(col("i.priority")))),
            false, LiveCase.flat(sql));
      }
      case 1 -> {
        String sql = "SELECT i.id, count(c.id), min(c.body), max(c.body) FROM issues i JOIN comments c"
            + " ON c.issue = i.id WHERE " + p.sql() + " GROUP BY i.id";
        return new LiveCase("grouped join: " + sql, rep -> Query.from("i", LiveCase.table(rep, "issues"))
            .innerJoin("c", LiveCase.table(rep, "comments"), Query.on("c.issue", "i.id")).where(p.expr())
            .groupBy(col("i.id"))
            .select(Query.as("id", col("i.id")), Query.as("n", count(col("c.id"))),
                Query.as("low", min(col("c.body"))), Query.as("high", max(col("c.body")))),
            false, LiveCase.flat(sql));
      }
      default -> {
        String sql = "SELECT count(*), sum(i.priority), max(i.title) FROM issues i WHERE " + p.sql();
        return new LiveCase("aggregate: " + sql, rep -> Query.from("i", LiveCase.table(rep, "issues")).where(p.expr())
            .select(Query.as("n", count()), Query.as("total", sum(col("i.priority"))),
                Query.as("last", max(col("i.title")))),
            false, LiveCase.flat(sql));
      }
    }
  }

  /** An order item in both forms: Rivulet's ascending puts NULLs last, descending first. */
  private static QueryIR.OrderItem order(String column, boolean desc, List<String> sql) {
    sql.add(column + (desc ? " DESC NULLS FIRST" : " ASC NULLS LAST"));
    return desc ? Query.desc(col(column)) : Query.asc(col(column));
  }

  private static LiveCase window(Random r) {
    if (r.nextInt(3) == 0) {
      return commentWindow(r);
    }
    Pred p = r.nextBoolean() ? issuePred(r, 1) : new Pred(isNotNull(col("i.id")), "i.id IS NOT NULL");
    List<String> orderSql = new ArrayList<>();
    List<QueryIR.OrderItem> order = new ArrayList<>();
    String first = List.of("i.priority", "i.title", "i.project").get(r.nextInt(3));
    order.add(order(first, r.nextBoolean(), orderSql));
    if (r.nextBoolean()) {
      order.add(order("i.priority", r.nextBoolean(), orderSql));
    }
    order.add(order("i.id", false, orderSql));
    int limit = 1 + r.nextInt(5);
    int offset = r.nextInt(3) == 0 ? 1 + r.nextInt(2) : 0;
    String sql = "SELECT i.id, i.priority, i.title, i.project FROM issues i WHERE " + p.sql() + " ORDER BY "
        + String.join(", ", orderSql) + " LIMIT " + limit + (offset > 0 ? " OFFSET " + offset : "");
    return new LiveCase("window: " + sql, rep -> {
      Query q = Query.from("i", LiveCase.table(rep, "issues")).where(p.expr())
          .select(Query.as("id", col("i.id")), Query.as("priority", col("i.priority")), Query.as("title", col("i.title")),
              Query.as("project", col("i.project")))
          .orderBy(order.toArray(QueryIR.OrderItem[]::new)).limit(limit);
      return offset > 0 ? q.offset(offset) : q;
    }, true, LiveCase.flat(sql));
  }

  /** Comments ordered by a nullable column (then id), a window of them: over a lazy table, a whole read. */
  private static LiveCase commentWindow(Random r) {
    List<String> orderSql = new ArrayList<>();
    QueryIR.OrderItem first = order(r.nextBoolean() ? "c.body" : "c.issue", r.nextBoolean(), orderSql);
    QueryIR.OrderItem tie = order("c.id", false, orderSql);
    int limit = 1 + r.nextInt(4);
    String sql = "SELECT c.id, c.issue, c.body FROM comments c ORDER BY " + String.join(", ", orderSql) + " LIMIT " + limit;
    return new LiveCase("comment window: " + sql, rep -> Query.from("c", LiveCase.table(rep, "comments"))
        .select(Query.as("id", col("c.id")), Query.as("issue", col("c.issue")), Query.as("body", col("c.body")))
        .orderBy(first, tie).limit(limit), true, LiveCase.flat(sql));
  }

  /** Comments with the issue they reference (a one include), perhaps ordered and limited. */
  private static LiveCase commentsWithIssue(Random r) {
    boolean window = r.nextBoolean();
    int limit = 2 + r.nextInt(4);
    String sql = "SELECT c.id, c.issue FROM comments c" + (window ? " ORDER BY c.id DESC LIMIT " + limit : "");
    LiveCase.IncludeSql issue = new LiveCase.IncludeSql(1,
        "SELECT i.status, i.priority FROM issues i WHERE i.id = ?", LiveCase.Mode.ONE);
    return new LiveCase("comments with their issue: " + sql + " + ONE(" + issue.childSql() + ")", rep -> {
      Query q = Query.from("c", LiveCase.table(rep, "comments"))
          .select(Query.as("id", col("c.id")), Query.as("issue", col("c.issue")),
              Query.includeOne("of", Query.from("i", LiveCase.table(rep, "issues")).where(eq(col("i.id"), col("c.issue")))
                  .select(Query.as("status", col("i.status")), Query.as("priority", col("i.priority")))));
      return window ? q.orderBy(Query.desc(col("c.id"))).limit(limit) : q;
    }, window, LiveCase.nested(sql, List.of(issue)));
  }

  /** Issues (filtered, perhaps ordered and limited) with one or two includes. */
  private static LiveCase issuesWithIncludes(Random r) {
    Pred p = r.nextBoolean() ? issuePred(r, 1) : new Pred(isNotNull(col("i.id")), "i.id IS NOT NULL");
    boolean window = r.nextBoolean();
    int limit = 2 + r.nextInt(5);
    String sql = "SELECT i.id, i.project FROM issues i WHERE " + p.sql() + (window ? " ORDER BY i.id LIMIT " + limit : "");
    List<LiveCase.IncludeSql> sqls = new ArrayList<>();
    List<Function<SqliteReplica, QueryIR.SelectItem>> items = new ArrayList<>();
    for (int k = 1 + r.nextInt(2); k > 0; k--) {
      include(r, sqls, items);
    }
    return new LiveCase("issues with includes: " + sql + " + " + sqls, rep -> {
      List<QueryIR.SelectItem> select = new ArrayList<>(List.of(Query.as("id", col("i.id")),
          Query.as("project", col("i.project"))));
      items.forEach(f -> select.add(f.apply(rep)));
      Query q = Query.from("i", LiveCase.table(rep, "issues")).where(p.expr())
          .select(select.toArray(QueryIR.SelectItem[]::new));
      return window ? q.orderBy(Query.asc(col("i.id"))).limit(limit) : q;
    }, window, LiveCase.nested(sql, sqls));
  }

  /** Projects with their first issues (an array ordered by priority, limited), each with its comments' bodies. */
  private static LiveCase projectsWithIssues(Random r) {
    int limit = 1 + r.nextInt(3);
    boolean desc = r.nextBoolean();
    String sql = "SELECT p.id, p.name FROM projects p";
    LiveCase.IncludeSql bodies = new LiveCase.IncludeSql(0,
        "SELECT c.body FROM comments c WHERE c.issue = ? ORDER BY c.id", LiveCase.Mode.CONCAT);
    LiveCase.IncludeSql issues = new LiveCase.IncludeSql(0, "SELECT i.id, i.priority FROM issues i WHERE i.project = ?"
        + " ORDER BY i.priority " + (desc ? "DESC NULLS FIRST" : "ASC NULLS LAST") + ", i.id LIMIT " + limit,
        LiveCase.Mode.ARRAY, List.of(bodies));
    return new LiveCase("projects with issues: " + sql + " + " + issues, rep -> Query.from("p", LiveCase.table(rep, "projects"))
        .select(Query.as("id", col("p.id")), Query.as("name", col("p.name")),
            Query.includeArray("issues", Query.from("i", LiveCase.table(rep, "issues"))
                .where(eq(col("i.project"), col("p.id")))
                .select(Query.as("id", col("i.id")), Query.as("priority", col("i.priority")),
                    Query.includeConcat("bodies", Query.from("c", LiveCase.table(rep, "comments"))
                        .where(eq(col("c.issue"), col("i.id"))).select(Query.as("body", col("c.body")))
                        .orderBy(Query.asc(col("c.id"))), ","))
                .orderBy(desc ? Query.desc(col("i.priority")) : Query.asc(col("i.priority")), Query.asc(col("i.id")))
                .limit(limit))),
        false, LiveCase.nested(sql, List.of(issues)));
  }

  /** One include of an issue (columns: 0 id, 1 project). */
  private static void include(Random r, List<LiveCase.IncludeSql> sqls,
      List<Function<SqliteReplica, QueryIR.SelectItem>> items) {
    String name = "inc" + items.size();
    String c = "c" + items.size(); // aliases are unique in a query tree
    Function<SqliteReplica, Query> comments = rep -> Query.from(c, LiveCase.table(rep, "comments"))
        .where(eq(col(c + ".issue"), col("i.id")));
    switch (r.nextInt(6)) {
      case 0 -> {
        List<String> orderSql = new ArrayList<>();
        boolean byId = r.nextBoolean();
        boolean desc = byId || r.nextBoolean();
        QueryIR.OrderItem first = order(c + (byId ? ".id" : ".body"), desc, orderSql);
        QueryIR.OrderItem tie = order(c + ".id", false, orderSql);
        int limit = 1 + r.nextInt(3);
        sqls.add(new LiveCase.IncludeSql(0, "SELECT " + c + ".id, " + c + ".body FROM comments " + c + " WHERE " + c + ".issue = ? ORDER BY "
            + String.join(", ", orderSql) + " LIMIT " + limit, LiveCase.Mode.ARRAY));
        items.add(rep -> Query.includeArray(name, comments.apply(rep)
            .select(Query.as("id", col(c + ".id")), Query.as("body", col(c + ".body"))).orderBy(first, tie).limit(limit)));
      }
      case 1 -> {
        sqls.add(new LiveCase.IncludeSql(1, "SELECT p.id, p.name FROM projects p WHERE p.id = ?", LiveCase.Mode.ONE));
        String p = "p" + items.size();
        items.add(rep -> Query.includeOne(name, Query.from(p, LiveCase.table(rep, "projects"))
            .where(eq(col(p + ".id"), col("i.project"))).select(Query.as("id", col(p + ".id")),
                Query.as("name", col(p + ".name")))));
      }
      case 2 -> {
        sqls.add(new LiveCase.IncludeSql(0, "SELECT c.body FROM comments c WHERE c.issue = ? ORDER BY c.id",
            LiveCase.Mode.CONCAT));
        items.add(rep -> Query.includeConcat(name, comments.apply(rep).select(Query.as("body", col(c + ".body")))
            .orderBy(Query.asc(col(c + ".id"))), ","));
      }
      case 3 -> { // a grouped child: absent (null) for an issue without comments
        sqls.add(new LiveCase.IncludeSql(0, "SELECT count(*), max(c.body), sum(c.id) FROM comments c WHERE c.issue = ?"
            + " GROUP BY c.issue", LiveCase.Mode.ONE));
        items.add(rep -> Query.includeOne(name, comments.apply(rep).groupBy(col(c + ".issue"))
            .select(Query.as("n", count()), Query.as("last", max(col(c + ".body"))), Query.as("ids", sum(col(c + ".id"))))));
      }
      case 4 -> { // a child filtered beyond its correlation, ordered by a nullable column
        String pattern = List.of("c1%", "c%", "%2", "x").get(r.nextInt(4));
        sqls.add(new LiveCase.IncludeSql(0, "SELECT c.id, c.body FROM comments c WHERE c.issue = ? AND (c.body LIKE '"
            + pattern + "' OR c.body IS NULL) ORDER BY c.body DESC NULLS FIRST, c.id LIMIT 2", LiveCase.Mode.ARRAY));
        items.add(rep -> Query.includeArray(name, Query.from(c, LiveCase.table(rep, "comments"))
            .where(and(eq(col(c + ".issue"), col("i.id")),
                or(like(col(c + ".body"), lit(pattern)), isNull(col(c + ".body")))))
            .select(Query.as("id", col(c + ".id")), Query.as("body", col(c + ".body")))
            .orderBy(Query.desc(col(c + ".body")), Query.asc(col(c + ".id"))).limit(2)));
      }
      default -> {
        sqls.add(new LiveCase.IncludeSql(0, "SELECT c.id, c.body FROM comments c WHERE c.issue = ?",
            LiveCase.Mode.COLLECTION));
        items.add(rep -> Query.include(name, comments.apply(rep)
            .select(Query.as("id", col(c + ".id")), Query.as("body", col(c + ".body")))));
      }
    }
  }
}
