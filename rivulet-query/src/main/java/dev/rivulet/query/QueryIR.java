package dev.rivulet.query;

import java.util.List;
import java.util.Objects;

/**
 * The immutable query IR: what {@link Query} builds and the compiler consumes. A query is a
 * {@link Select} block or a {@link UnionAll} of queries. Aliases name the relations of one block;
 * they are lexical only (renaming an alias cannot change a result) and must be unique across the
 * whole query tree.
 */
public sealed interface QueryIR {
  /** A relation a block reads: a source, or a subquery. */
  sealed interface Relation {}

  /** A source relation (a collection or a live query). */
  record Table(Source source) implements Relation {
    public Table {
      Objects.requireNonNull(source, "source");
    }
  }

  /** A subquery used as a relation. */
  record Subquery(QueryIR query) implements Relation {}

  /** A relation under an alias. */
  record Aliased(String alias, Relation relation) {
    public Aliased {
      Objects.requireNonNull(alias, "alias");
      Objects.requireNonNull(relation, "relation");
    }
  }

  /** Join kinds. */
  enum JoinKind { INNER, LEFT, RIGHT, FULL }

  /** One equality of a join condition, {@code left = right}; each side names one relation. */
  record On(Expr.Col left, Expr.Col right) {}

  /** {@code kind JOIN relation ON left1 = right1 AND ...}. */
  record Join(JoinKind kind, Aliased relation, List<On> on) {
    public Join {
      on = List.copyOf(on);
    }
  }

  /** One output column. */
  record SelectItem(String name, Expr expr) {}

  /** One ordering key; where NULLs go is explicit. */
  record OrderItem(Expr expr, boolean descending, boolean nullsFirst) {}

  /**
   * One query block.
   *
   * @param select empty for all columns: a lone relation's own, or {@code alias.column} for
   *     each column of each relation of a join
   * @param limit null for no limit
   * @param after null, or the cursor the ordered result starts strictly after
   */
  record Select(
      Aliased from,
      List<Join> joins,
      Expr where,
      List<Expr> groupBy,
      Expr having,
      List<SelectItem> select,
      boolean distinct,
      List<OrderItem> orderBy,
      Long limit,
      long offset,
      boolean findOne,
      Cursor after)
      implements QueryIR {
    public Select {
      joins = List.copyOf(joins);
      groupBy = List.copyOf(groupBy);
      select = List.copyOf(select);
      orderBy = List.copyOf(orderBy);
    }

    /** A block that starts from the head of its order. */
    public Select(Aliased from, List<Join> joins, Expr where, List<Expr> groupBy, Expr having, List<SelectItem> select,
        boolean distinct, List<OrderItem> orderBy, Long limit, long offset, boolean findOne) {
      this(from, joins, where, groupBy, having, select, distinct, orderBy, limit, offset, findOne, null);
    }
  }

  /** {@code part1 UNION ALL part2 ...}; parts have the same width and compatible types. */
  record UnionAll(List<QueryIR> parts) implements QueryIR {
    public UnionAll {
      parts = List.copyOf(parts);
    }
  }
}
