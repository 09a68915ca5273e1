package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Run in a fresh JVM by {@link WarmupTest}, logging class loads to the file {@code args[0]}
 * ({@code -Xlog:class+load}): loads {@value Warmup#LOAD_AHEAD_ROWS} rows into a new database, made
 * before it so that the load is short, and as soon as the load's commit returns prints the classes
 * of {@link FirstQueryPaths} not yet loaded ({@code missing=} and their names, none when all are).
 */
public final class LoadAheadProbe {
  private LoadAheadProbe() {}

  public static void main(String[] args) throws Exception {
    Row[] rows = new Row[Warmup.LOAD_AHEAD_ROWS];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = Row.of(i, "title " + i % 100);
    }
    Rivulet db = Rivulet.create();
    Schema items = Schema.parse("id INT NOT NULL, title STRING");
    SourceCollection.SyncBatch load = db.collection("items", items, List.of("id")).beginSync();
    for (Row r : rows) {
      load.write(r);
    }
    load.markReady().commit();
    String log = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8);
    List<String> missing = new ArrayList<>();
    for (String[] names : new String[][] {FirstQueryPaths.BUILD, FirstQueryPaths.LATE}) {
      for (String name : names) {
        if (!log.contains(" " + name + " ")) {
          missing.add(name);
        }
      }
    }
    System.out.println("missing=" + String.join(",", missing));
  }
}
