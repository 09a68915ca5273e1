package dev.rivulet.bench.query;

import dev.rivulet.bench.Latencies;
import dev.rivulet.bench.Report;
import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.bench.query.FaceProbe.Face;
import dev.rivulet.engine.Row;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.SubscribeOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The output faces as a writer meets them: the update latency of a workload's live query with one
 * synchronous subscriber of each face attached ({@code none}: no subscriber; {@code keyed}: {@code
 * subscribe(SubscribeOptions.sync(), Consumer<KeyedBatch>)}; {@code changes}: {@code
 * subscribeChanges}; {@code window}: {@code subscribeWindow}), each subscriber doing minimal work
 * ({@link FaceProbe}: count the batch, keep it for the check). A synchronous subscriber runs on the
 * writer's thread inside {@code commit()}, so its face's cost (building the batch, the window
 * steps) is in the timed commit.
 *
 * <p>One database per face, built from the same data, all fed the workload's update streams in
 * lock-step: each update goes to every database in turn, the first one rotating per update, so
 * that machine noise and garbage collections fall on all faces alike (as {@link
 * W1CompiledVsHandwired} does); the interleaving costs each of them some cache warmth, so these
 * figures run a little above the single-database {@code update_*} lines. The window face needs an
 * ordered query: for an unordered workload (W3) every face also runs on its {@link
 * QueryWorkload#orderedVariant ordered variant} (W3o), where the window/keyed ratio is taken.
 *
 * <p>Lines carry {@code "face":...} and metric names {@code face_<face>_update_p50_us} etc. (the
 * peer runner ignores them, so the workload's own {@code update_*} lines are untouched), the same
 * over only the updates that changed the result ({@code face_<face>_changed_update_p50_us}: a
 * subscriber got a batch; most W1 {@code random} updates miss the window and deliver nothing),
 * then per mix {@code face_<face>_vs_keyed_p50_ratio} / {@code _p99_ratio}, {@code
 * face_<face>_vs_keyed_changed_p50_ratio} / {@code _p99_ratio}, and {@code
 * face_keyed_vs_none_p50_ratio} (and {@code _changed_}). Checked after hydration and after each mix: every live query
 * against the naive result, and every subscriber's batches folded (map by key, multiset of rows,
 * or list with the window steps applied) against its query's rows: {@code face_correct}.
 */
final class FaceUpdates {
  private FaceUpdates() {}

  /** The faces run by default. */
  static final List<Face> ALL = List.of(Face.NONE, Face.KEYED, Face.CHANGES, Face.WINDOW);

  /** One database of the comparison: a workload's tables and query, with one face subscribed. */
  private static final class Arm {
    final QueryWorkload w;
    final Face face;
    final Tables.Db db;
    final FaceProbe probe;
    Latencies lat;
    Latencies changedLat; // the updates that changed this query's result
    long[] samples;
    long batches;
    long items;
    String problem;

    Arm(QueryWorkload w, Face face, Tables.Data data) {
      this.w = w;
      this.face = face;
      this.db = Tables.open(w, data);
      this.probe = FaceProbe.open(face, db.query(), SubscribeOptions.sync(), true);
      db.rivulet().onError((c, e) -> {
        if (problem == null) {
          problem = "subscriber failure reported on '" + c.name() + "': " + e;
        }
      });
    }

    void check(PeerData.Issue[] cur, Tables.Data data, String when) {
      if (problem != null) {
        return;
      }
      LiveQuery q = db.query();
      problem = w.check(q.rows(), cur, data, when);
      if (problem == null) {
        probe.fold();
        problem = probe.check(q.rows(), q.entries(), when);
      }
      if (problem == null && probe.ended()) {
        problem = when + ": the " + face.id() + " subscription ended";
      }
    }
  }

  /** The workloads the faces run on: {@code w}, and its ordered variant when a window is asked for. */
  static List<QueryWorkload> variants(QueryWorkload w, List<Face> faces) {
    List<QueryWorkload> out = new ArrayList<>(List.of(w));
    if (faces.contains(Face.WINDOW) && !w.ordered() && w.orderedVariant() != null) {
      out.add(w.orderedVariant());
    }
    return out;
  }

  private static List<Arm> build(List<QueryWorkload> variants, List<Face> faces, Tables.Data data) {
    List<Arm> arms = new ArrayList<>();
    for (QueryWorkload v : variants) {
      for (Face f : faces) {
        if (f != Face.WINDOW || v.ordered()) {
          System.gc();
          arms.add(new Arm(v, f, data));
        }
      }
    }
    return arms;
  }

  static void run(QueryWorkload w, int rows, List<Face> faces, Config cfg, Report out) {
    List<QueryWorkload> variants = variants(w, faces);
    Tables.Data data = Tables.Data.generate(rows, cfg.seed());
    if (cfg.prewarm() > 0) {
      List<Arm> warm = build(variants, faces, data);
      PeerData.Issue[] copy = data.issues().clone();
      int per = Math.max(1, cfg.prewarm() / w.mixes().size());
      for (String mix : w.mixes()) {
        PeerData.Updates s = PeerData.updates(w.streamName(), mix, copy, cfg.seed() + Config.PREWARM_SEED_OFFSET);
        for (int i = 0; i < per; i++) {
          PeerData.Issue after = s.next();
          Row row = Tables.row(after);
          for (Arm a : warm) {
            a.db.write(row);
          }
          s.applied(after);
          if ((i & 255) == 255) {
            warm.forEach(a -> a.probe.fold());
          }
        }
      }
      warm.forEach(a -> a.probe.close());
    }
    List<Arm> arms = build(variants, faces, data);
    PeerData.Issue[] cur = data.issues().clone();
    for (Arm a : arms) {
      a.check(cur, data, "after hydration");
    }
    int n = arms.size();
    for (String mix : w.mixes()) {
      if (arms.stream().anyMatch(a -> a.problem != null)) {
        break;
      }
      PeerData.Updates stream = PeerData.updates(w.streamName(), mix, cur, cfg.seed());
      for (Arm a : arms) {
        a.samples = new long[cfg.updates()];
        a.batches = a.probe.batches;
        a.items = a.probe.items;
      }
      // Per query variant, whether each timed update changed its result (a subscriber got a batch).
      boolean[][] changed = new boolean[variants.size()][cfg.updates()];
      System.gc();
      for (int i = 0, total = cfg.warmup() + cfg.updates(); i < total; i++) {
        PeerData.Issue after = stream.next();
        Row row = Tables.row(after);
        boolean timed = i >= cfg.warmup();
        for (int k = 0; k < n; k++) {
          Arm a = arms.get((i + k) % n);
          long before = a.probe.batches;
          long t0 = System.nanoTime();
          a.db.write(row);
          long t1 = System.nanoTime();
          if (timed) {
            a.samples[i - cfg.warmup()] = t1 - t0;
            if (a.probe.batches != before) {
              changed[variants.indexOf(a.w)][i - cfg.warmup()] = true;
            }
          }
        }
        stream.applied(after);
        if ((i & 255) == 255) {
          for (Arm a : arms) {
            a.probe.fold(); // outside the timed commits; keeps the collected batches few
          }
        }
      }
      for (Arm a : arms) {
        boolean[] ch = changed[variants.indexOf(a.w)];
        a.lat = new Latencies(a.samples.length);
        a.changedLat = new Latencies(a.samples.length);
        for (int i = 0; i < a.samples.length; i++) {
          a.lat.record(a.samples[i]);
          if (ch[i]) {
            a.changedLat.record(a.samples[i]);
          }
        }
        Report r = out.tagged("face", a.face.id());
        String prefix = "face_" + a.face.id() + "_";
        Harness.report(r, a.w.name(), rows, mix, prefix, a.lat);
        if (a.changedLat.size() > 0) {
          r.count(a.w.name(), rows, mix, prefix + "changed_updates", a.changedLat.size());
          r.figure(a.w.name(), rows, mix, prefix + "changed_update_p50_us", a.changedLat.quantileMicros(0.50));
          r.figure(a.w.name(), rows, mix, prefix + "changed_update_p99_us", a.changedLat.quantileMicros(0.99));
        }
        r.count(a.w.name(), rows, mix, prefix + "batches", a.probe.batches - a.batches);
        r.count(a.w.name(), rows, mix, prefix + "items", a.probe.items - a.items);
      }
      for (QueryWorkload v : variants) {
        ratios(arms, v, rows, mix, out);
      }
      for (Arm a : arms) {
        a.check(cur, data, "after the " + mix + " mix");
      }
    }
    for (Arm a : arms) {
      out.tagged("face", a.face.id()).correct(a.w.name(), rows, "face_correct", a.problem == null,
          a.problem == null ? null : a.problem);
      a.probe.close();
    }
  }

  private static Arm arm(List<Arm> arms, QueryWorkload v, Face f) {
    return arms.stream().filter(a -> a.w.name().equals(v.name()) && a.face == f).findFirst().orElse(null);
  }

  /**
   * Each face against keyed on the same query (p50 and p99, over all updates and over the updates
   * that changed the result), and keyed against none (p50, both ways).
   */
  private static void ratios(List<Arm> arms, QueryWorkload v, int rows, String mix, Report out) {
    Arm keyed = arm(arms, v, Face.KEYED);
    for (Face f : List.of(Face.CHANGES, Face.WINDOW)) {
      Arm a = arm(arms, v, f);
      if (a == null || keyed == null) {
        continue;
      }
      Report r = out.tagged("face", f.id());
      for (boolean onlyChanged : new boolean[] {false, true}) {
        Latencies x = onlyChanged ? a.changedLat : a.lat;
        Latencies k = onlyChanged ? keyed.changedLat : keyed.lat;
        if (x.size() == 0) {
          continue;
        }
        for (double q : new double[] {0.50, 0.99}) {
          ratio(r, v, rows, mix, f.id(), "keyed", onlyChanged, q, x, k);
        }
      }
    }
    Arm none = arm(arms, v, Face.NONE);
    if (keyed != null && none != null) {
      Report r = out.tagged("face", Face.KEYED.id());
      ratio(r, v, rows, mix, "keyed", "none", false, 0.50, keyed.lat, none.lat);
      if (keyed.changedLat.size() > 0) {
        ratio(r, v, rows, mix, "keyed", "none", true, 0.50, keyed.changedLat, none.changedLat);
      }
    }
  }

  private static void ratio(Report r, QueryWorkload v, int rows, String mix, String face, String base,
      boolean onlyChanged, double q, Latencies x, Latencies b) {
    String p = q == 0.50 ? "p50" : "p99";
    String what = onlyChanged ? "changed_" : "";
    double xv = x.quantileMicros(q);
    double bv = b.quantileMicros(q);
    r.figure(v.name(), rows, mix, "face_" + face + "_vs_" + base + "_" + what + p + "_ratio", xv / bv,
        String.format(Locale.ROOT, "%s %s %.3f us / %s %s %.3f us%s", face, p, xv, base, p, bv,
            onlyChanged ? " (the " + x.size() + " updates that changed the result)" : ""));
  }
}
