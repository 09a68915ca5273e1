package dev.rivulet.bench.peers;

import java.util.Comparator;
import java.util.List;

/**
 * W4's comments and comment update streams, the Java twin of the W4 part of {@code
 * rivulet-bench/peers/gen.mjs} (spec in {@code rivulet-bench/peers/README.md}). W4 at {@code n}
 * issues reads the {@link PeerData#PROJECTS} projects, {@link PeerData#issues} and {@code 10 n}
 * comments. Plain records, no engine types.
 */
public final class PeerComments {
  public static final int PER_ISSUE = 10;
  /** Comments shown per visible issue. */
  public static final int LIMIT = 3;
  /** The update mixes, run in this order on the same data and live query. */
  public static final List<String> MIXES = List.of("a", "b", "c", "c2");
  static final long EPOCH = 1_800_000_000L;

  public record Comment(int id, int issueId, long created, String body) {
    Comment withIssue(int issue) {
      return new Comment(id, issue, created, body);
    }
  }

  /** One update: an insert ({@code before} null) or a move of {@code before} to {@code after}'s issue. */
  public record Change(Comment before, Comment after) {
    public boolean isInsert() {
      return before == null;
    }
  }

  /** W4's child order: created desc, id desc. */
  public static final Comparator<Comment> ORDER = Comparator.comparingLong((Comment c) -> -c.created())
      .thenComparingInt(c -> -c.id());

  private PeerComments() {}

  /** Comment {@code id} on {@code issue}; draws the created jitter, then the body word. */
  static Comment comment(int id, int issue, SplitMix64 rnd) {
    long created = EPOCH + 4L * id + rnd.nextInt(4);
    return new Comment(id, issue, created, PeerData.WORDS[rnd.nextInt(8)]);
  }

  /** {@code 10 n} comments on {@code n} issues; per row the draws are issue, created jitter, body word. */
  public static Comment[] comments(int n, long seed) {
    SplitMix64 rnd = new SplitMix64(seed + PeerData.tag("comments"));
    Comment[] out = new Comment[PER_ISSUE * n];
    for (int id = 0; id < out.length; id++) {
      out[id] = comment(id, rnd.nextInt(n), rnd);
    }
    return out;
  }

  /** A W4 update stream: {@link #next} draws a change without storing it; {@link #applied} stores it. */
  public interface Updates {
    Change next();

    void applied(Change change);
  }

  /**
   * The stream of {@code mix} over {@code state}: {@code a} inserts the newest comment on a visible
   * issue, {@code b} on an invisible one, {@code c} moves a random comment to a random other issue,
   * {@code c2} moves the newest comment of a visible issue to another visible issue (see the README).
   */
  public static Updates updates(String mix, W4State state, long seed) {
    SplitMix64 rnd = new SplitMix64(seed + PeerData.tag("W4_" + mix));
    int n = state.issueCount();
    int[] v = state.visible();
    java.util.function.Supplier<Change> next = switch (mix) {
      case "a" -> () -> insert(state, v[rnd.nextInt(v.length)], rnd);
      case "b" -> () -> {
        int i;
        do {
          i = rnd.nextInt(n);
        } while (state.isVisible(i));
        return insert(state, i, rnd);
      };
      case "c" -> () -> {
        Comment c = state.comment(rnd.nextInt(state.commentCount()));
        return new Change(c, c.withIssue((c.issueId() + 1 + rnd.nextInt(n - 1)) % n));
      };
      case "c2" -> () -> {
        int k = rnd.nextInt(v.length);
        for (int tries = 0; state.newest(k) == null; tries++) {
          if (tries == v.length) {
            throw new IllegalStateException("W4 c2: no visible issue has comments");
          }
          k = (k + 1) % v.length;
        }
        Comment c = state.newest(k);
        return new Change(c, c.withIssue(v[(k + 1 + rnd.nextInt(v.length - 1)) % v.length]));
      };
      default -> throw new IllegalArgumentException("no W4 mix " + mix + " (a, b, c, c2)");
    };
    return new Updates() {
      @Override
      public Change next() {
        return next.get();
      }

      @Override
      public void applied(Change change) {
        state.apply(change);
      }
    };
  }

  private static Change insert(W4State state, int issue, SplitMix64 rnd) {
    return new Change(null, comment(state.commentCount(), issue, rnd));
  }
}
