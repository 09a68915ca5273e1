package dev.rivulet.query;

import static dev.rivulet.query.Exprs.and;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.isNotNull;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Query.as;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * Nested queries over {@link IncludeWorld}, each child built from the expression it correlates
 * with (a parent column, or a literal for a fresh per-parent query), with random variations:
 * child filters, orders with and without ties, limits and offsets, joins and grouping inside a
 * child, and every materialization mode at every depth (up to three includes deep).
 */
final class IncludeQueries {
  private final IncludeWorld w;
  private final Random rnd;

  IncludeQueries(IncludeWorld w, Random rnd) {
    this.w = w;
    this.rnd = rnd;
  }

  /** How a child is shaped: filter, order and window, and what it nests. */
  record CommentShape(boolean openOnly, int order, long limit, long offset, boolean author, boolean join) {}

  CommentShape randomComments() {
    long limit = rnd.nextInt(3) == 0 ? 0 : 1 + rnd.nextInt(3);
    return new CommentShape(rnd.nextInt(4) == 0, rnd.nextInt(3), limit, limit > 0 && rnd.nextInt(3) == 0 ? 1 : 0,
        rnd.nextBoolean(), rnd.nextInt(4) == 0);
  }

  /**
   * An issue's comments: {@code order} 0 = by key only (no order by), 1 = created desc with ties
   * (the key breaks them), 2 = created desc, id; a window needs an order, so order 0 drops it.
   * With {@code author}, the comment's author as a ONE include (depth + 1).
   */
  Query comments(Expr issue, CommentShape s, String c, String u) {
    Query q = Query.from(c, w.comments);
    if (s.join) {
      q = q.leftJoin(c + "w", w.users, Query.on(c + "w.id", c + ".author"));
    }
    Expr where = eq(col(c + ".issue"), issue);
    q = q.where(s.openOnly ? and(where, isNotNull(col(c + ".body"))) : where);
    QueryIR.SelectItem[] items = s.join
        ? new QueryIR.SelectItem[] {as("id", col(c + ".id")), as("body", col(c + ".body")),
            as("who", col(c + "w.name"))}
        : s.author
            ? new QueryIR.SelectItem[] {as("id", col(c + ".id")), as("body", col(c + ".body")),
                as("created", col(c + ".created")), Query.includeOne("author", user(col(c + ".author"), u))}
            : new QueryIR.SelectItem[] {as("id", col(c + ".id")), as("body", col(c + ".body")),
                as("created", col(c + ".created"))};
    q = q.select(items);
    if (s.order == 1) {
      q = q.orderBy(Query.desc(col(c + ".created")));
    } else if (s.order == 2) {
      q = q.orderBy(Query.desc(col(c + ".created")), Query.asc(col(c + ".id")));
    }
    if (s.order > 0 && s.limit > 0) {
      q = q.limit(s.limit).offset(s.offset);
    }
    return q;
  }

  /** The user {@code id} points at (at most one row). */
  Query user(Expr id, String u) {
    return Query.from(u, w.users).where(eq(col(u + ".id"), id)).select(as("id", col(u + ".id")),
        as("name", col(u + ".name")));
  }

  /** Per issue: how many comments each author wrote (grouping inside a child; no order: by key). */
  Query commentsPerAuthor(Expr issue, String g) {
    return Query.from(g, w.comments).where(eq(col(g + ".issue"), issue)).groupBy(col(g + ".author"))
        .select(as("author", col(g + ".author")), as("n", count()));
  }

  /** The non-null bodies of an issue's comments, oldest first (a one-column child for concat). */
  Query bodies(Expr issue, String b) {
    return Query.from(b, w.comments).where(eq(col(b + ".issue"), issue))
        .orderBy(Query.asc(col(b + ".created")), Query.asc(col(b + ".id"))).select(as("body", col(b + ".body")));
  }

  /** A project's issues, optionally open only, by priority desc then id, optionally a window. */
  record IssueShape(boolean openOnly, long limit, Expr.IncludeMode commentMode, CommentShape comments,
      boolean assignee) {}

  IssueShape randomIssues(Expr.IncludeMode commentMode) {
    return new IssueShape(rnd.nextInt(3) == 0, rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(2) : 0, commentMode,
        randomComments(), rnd.nextBoolean());
  }

  Query issues(Expr project, IssueShape s) {
    Query q = Query.from("i", w.issues);
    Expr where = eq(col("i.project"), project);
    q = q.where(s.openOnly ? and(where, eq(col("i.status"), lit("open"))) : where);
    java.util.List<QueryIR.SelectItem> items = new java.util.ArrayList<>(java.util.List.of(as("id", col("i.id")),
        as("title", col("i.title")), as("priority", col("i.priority")), as("estimate", col("i.estimate"))));
    if (s.commentMode != null) {
      items.add(include("comments", s.commentMode, s.commentMode == Expr.IncludeMode.CONCAT
          ? bodies(col("i.id"), "c") : comments(col("i.id"), s.comments, "c", "u")));
    }
    if (s.assignee) {
      items.add(Query.includeOne("assignee", user(col("i.assignee"), "v")));
    }
    q = q.select(items.toArray(new QueryIR.SelectItem[0]))
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id")));
    return s.limit > 0 ? q.limit(s.limit) : q;
  }

  static QueryIR.SelectItem include(String name, Expr.IncludeMode mode, Query child) {
    return switch (mode) {
      case ARRAY -> Query.includeArray(name, child);
      case ONE -> Query.includeOne(name, child);
      case COLLECTION -> Query.include(name, child);
      default -> Query.includeConcat(name, child, ", ");
    };
  }

  private final java.util.List<Expr.IncludeMode> modes = new java.util.ArrayList<>();

  private Expr.IncludeMode randomMode() {
    return modes.get(rnd.nextInt(modes.size()));
  }

  private Expr.IncludeMode randomModeNotConcat() {
    Expr.IncludeMode m = randomMode();
    return m == Expr.IncludeMode.CONCAT ? Expr.IncludeMode.ARRAY : m;
  }

  /**
   * Project roots, one per mode of their issues include; issue roots; an ordered root window. Only
   * {@code allowed} modes are used, at every depth.
   */
  Map<String, Query> randomSet(java.util.Set<Expr.IncludeMode> allowed) {
    modes.clear();
    modes.addAll(new java.util.TreeSet<>(allowed));
    Map<String, Query> out = new LinkedHashMap<>();
    for (Expr.IncludeMode mode : modes) {
      Query root = Query.from("p", w.projects);
      if (rnd.nextInt(3) == 0) {
        root = root.where(eq(col("p.archived"), lit(false)));
      }
      QueryIR.SelectItem issuesItem = mode == Expr.IncludeMode.CONCAT
          ? Query.includeConcat("issues", Query.from("i", w.issues).where(eq(col("i.project"), col("p.id")))
              .orderBy(Query.asc(col("i.title")), Query.asc(col("i.id"))).select(as("title", col("i.title"))), "|")
          : include("issues", mode, issues(col("p.id"), randomIssues(randomMode())));
      out.put("projects/" + mode, root.select(as("id", col("p.id")), as("name", col("p.name")), issuesItem));
    }
    CommentShape cs = randomComments();
    out.put("issues", Query.from("r", w.issues)
        .select(as("id", col("r.id")), as("status", col("r.status")),
            include("comments", randomModeNotConcat(), comments(col("r.id"), cs, "c", "u")),
            include("perAuthor", randomModeNotConcat(), commentsPerAuthor(col("r.id"), "g")),
            Query.includeConcat("bodies", bodies(col("r.id"), "b"), "/"),
            Query.includeConcat("createds", Query.from("x", w.comments).where(eq(col("x.issue"), col("r.id")))
                .orderBy(Query.asc(col("x.id"))).select(as("created", col("x.created"))), ","),
            Query.includeOne("assignee", user(col("r.assignee"), "v"))));
    out.put("topProjects", Query.from("p", w.projects)
        .select(as("id", col("p.id")), as("name", col("p.name")),
            include("issues", randomModeNotConcat(), issues(col("p.id"), randomIssues(randomMode()))))
        .orderBy(Query.asc(col("p.name")), Query.desc(col("p.id"))).limit(1 + rnd.nextInt(3)));
    out.put("joinedRoot", joinedRoot());
    return out;
  }

  /**
   * A root that joins (issue left join its project) with includes correlated on either side: the
   * comments of the issue by the issue's author (two equalities, one with a parent expression
   * through the join), and the titles of the issues of the joined project (NULL when the join
   * found none).
   */
  private Query joinedRoot() {
    Query byAssignee = Query.from("k", w.comments)
        .where(and(eq(col("k.issue"), col("r.id")), eq(col("k.author"), col("r.assignee"))))
        .select(as("id", col("k.id")), as("created", col("k.created")))
        .orderBy(Query.asc(col("k.created")));
    Query shifted = Query.from("s", w.comments)
        .where(and(eq(col("s.created"), Exprs.add(col("r.priority"), lit(1))), isNotNull(col("s.body"))))
        .select(as("id", col("s.id")))
        .orderBy(Query.desc(col("s.id"))).limit(2);
    Query titles = Query.from("t", w.issues).where(eq(col("t.project"), col("rp.id")))
        .orderBy(Query.asc(col("t.title")), Query.asc(col("t.id"))).select(as("title", col("t.title")));
    return Query.from("r", w.issues).leftJoin("rp", w.projects, Query.on("rp.id", "r.project"))
        .where(Exprs.ne(col("r.status"), lit("closed")))
        .select(as("id", col("r.id")), as("project", col("rp.name")),
            include("byAssignee", randomModeNotConcat(), byAssignee),
            include("shifted", randomModeNotConcat(), shifted),
            Query.includeConcat("titles", titles, ";"));
  }

  /** The issues of a project for the cross-formulation checks: no window, so a flat join can say it. */
  Query plainIssues(Expr project, boolean openOnly) {
    Query q = Query.from("i", w.issues);
    Expr where = eq(col("i.project"), project);
    return q.where(openOnly ? and(where, eq(col("i.status"), lit("open"))) : where)
        .select(as("id", col("i.id")), as("title", col("i.title")), as("priority", col("i.priority")))
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id")));
  }

  /** The same as a flat join: one row per (project, issue), the project's id first. */
  Query flatIssues(boolean openOnly) {
    Query q = Query.from("p", w.projects).innerJoin("i", w.issues, Query.on("i.project", "p.id"));
    if (openOnly) {
      q = q.where(eq(col("i.status"), lit("open")));
    }
    return q.select(as("pid", col("p.id")), as("id", col("i.id")), as("title", col("i.title")),
        as("priority", col("i.priority")))
        .orderBy(Query.asc(col("p.id")), Query.desc(col("i.priority")), Query.asc(col("i.id")));
  }
}
