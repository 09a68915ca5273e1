package dev.rivulet.bench.peers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The driver's W4 data, the twin of {@code W4State} in {@code gen.mjs}: the issues (never updated),
 * the comments by id (grown by inserts, replaced by moves), the {@link PeerData#LIMIT} visible
 * issues (the first open issues in W1 order) and, per visible issue, its comments in {@link
 * PeerComments#ORDER}. Owned by one driver thread.
 */
public final class W4State {
  private final PeerData.Issue[] issues;
  private final List<PeerComments.Comment> comments;
  private final int[] visible;
  private final int[] slot; // issue id -> index in visible, or -1
  private final List<TreeSet<PeerComments.Comment>> lists = new ArrayList<>();

  public W4State(PeerData.Issue[] issues, PeerComments.Comment[] comments) {
    this.issues = issues;
    this.comments = new ArrayList<>(Arrays.asList(comments));
    this.visible = Arrays.stream(issues).filter(PeerData.Issue::isOpen).sorted(PeerData.W1_ORDER)
        .limit(PeerData.LIMIT).mapToInt(PeerData.Issue::id).toArray();
    this.slot = new int[issues.length];
    Arrays.fill(slot, -1);
    for (int k = 0; k < visible.length; k++) {
      slot[visible[k]] = k;
      lists.add(new TreeSet<>(PeerComments.ORDER));
    }
    for (PeerComments.Comment c : comments) {
      add(c);
    }
  }

  public PeerData.Issue[] issues() {
    return issues;
  }

  public int issueCount() {
    return issues.length;
  }

  public int commentCount() {
    return comments.size();
  }

  public PeerComments.Comment comment(int id) {
    return comments.get(id);
  }

  /** The comments by id (a live view; read only). */
  public List<PeerComments.Comment> comments() {
    return java.util.Collections.unmodifiableList(comments);
  }

  /** The visible issue ids in W1 order (do not modify). */
  public int[] visible() {
    return visible;
  }

  public boolean isVisible(int issue) {
    return slot[issue] >= 0;
  }

  /** The newest comment of the k-th visible issue, or null when it has none. */
  public PeerComments.Comment newest(int k) {
    TreeSet<PeerComments.Comment> l = lists.get(k);
    return l.isEmpty() ? null : l.first();
  }

  /** Stores {@code change}: the insert or the move. */
  public void apply(PeerComments.Change change) {
    PeerComments.Comment after = change.after();
    if (change.before() != null) {
      remove(change.before());
      comments.set(after.id(), after);
    } else {
      if (after.id() != comments.size()) {
        throw new IllegalStateException("W4State: insert of comment " + after.id() + " at count " + comments.size());
      }
      comments.add(after);
    }
    add(after);
  }

  private void add(PeerComments.Comment c) {
    int k = slot[c.issueId()];
    if (k >= 0) {
      lists.get(k).add(c);
    }
  }

  private void remove(PeerComments.Comment c) {
    int k = slot[c.issueId()];
    if (k >= 0 && !lists.get(k).remove(c)) {
      throw new IllegalStateException("W4State lost comment " + c.id());
    }
  }
}
