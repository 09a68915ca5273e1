package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.isNull;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.or;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;

/**
 * Run in a fresh JVM (warm-up off, class loading logged) by {@link FirstQueryClassesTest}: what a
 * user's first steps load. Loads two collections by sync batches, then creates the common flat
 * shapes: a filtered, ordered, limited read, and a left join filtered on its joined side, ordered
 * and limited; then writes a row. Prints {@code MARK} lines between the steps.
 */
public final class FirstQueryProbe {
  private FirstQueryProbe() {}

  public static void main(String[] args) {
    Schema tasks = Schema.parse("id INT NOT NULL, status STRING, priority INT, title STRING, assignee INT");
    Schema members = Schema.parse("id INT NOT NULL, name STRING, active BOOL");
    System.out.println("MARK load");
    Rivulet db = Rivulet.create();
    SourceCollection t = db.collection("tasks", tasks, List.of("id"));
    SourceCollection.SyncBatch b = t.beginSync();
    for (int i = 0; i < 2000; i++) {
      b.write(Row.of(i, i % 3 == 0 ? "open" : "closed", i % 5, "task " + (i % 50), i % 5 == 0 ? null : i % 40));
    }
    b.markReady().commit();
    SourceCollection m = db.collection("members", members, List.of("id"));
    SourceCollection.SyncBatch bm = m.beginSync();
    for (int i = 0; i < 40; i++) {
      bm.write(Row.of(i, "member " + i, i % 2 == 0));
    }
    bm.markReady().commit();
    System.out.println("MARK filtered");
    LiveQuery open = db.liveQuery("open", Query.from("t", t).where(eq(col("t.status"), lit("open")))
        .orderBy(Query.desc(col("t.priority")), Query.asc(col("t.id"))).limit(20));
    System.out.println("MARK leftjoin");
    LiveQuery joined = db.liveQuery("joined", Query.from("t", t)
        .join(QueryIR.JoinKind.LEFT, "u", m, Query.on("t.assignee", "u.id"))
        .where(or(isNull(col("u.id")), eq(col("u.active"), lit(true))))
        .select(Query.as("id", col("t.id")), Query.as("priority", col("t.priority")), Query.as("owner", col("u.name")))
        .orderBy(Query.desc(col("t.priority")), Query.asc(col("t.id"))).limit(20));
    System.out.println("MARK write");
    t.syncWrite(Row.of(5000, "open", 9, "new", null));
    System.out.println("MARK end " + open.size() + " " + joined.size());
  }
}
