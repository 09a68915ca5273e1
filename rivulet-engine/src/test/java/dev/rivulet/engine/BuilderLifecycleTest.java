package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A builder that has built its graph refuses every further change, whichever check comes first. */
class BuilderLifecycleTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, grp STRING");

  @Test
  void aBuiltBuilderRefusesEveryChange() {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", S);
    Stream fwd = b.forward("loop", S);
    b.bind(fwd, in);
    Stream unbound = b.forward("late", S);
    b.bind(unbound, in.filter(r -> true));
    b.output("out", fwd);
    Graph g = b.build();

    // Names already taken would fail for that reason too: "already built" must come first.
    assertThatThrownBy(() -> b.input("in", S)).hasMessageContaining("already built");
    assertThatThrownBy(() -> b.output("out", in)).hasMessageContaining("already built");
    assertThatThrownBy(() -> b.forward("more", S)).hasMessageContaining("already built");
    assertThatThrownBy(() -> b.bind(unbound, in)).hasMessageContaining("already built");
    assertThatThrownBy(b::build).isInstanceOf(WiringException.class).hasMessageContaining("already built");
    assertThatThrownBy(() -> in.map(S, r -> r)).hasMessageContaining("already built");
    assertThatThrownBy(() -> in.distinct()).hasMessageContaining("already built");

    // The graph built before is unchanged and runs.
    g.input("in").insert(Row.of(1, "a"));
    g.run();
    assertThat(g.output("out").delta().toMap()).containsOnlyKeys(Row.of(1, "a"));
    assertThat(g.stats()).hasSize(5);
  }

  @Test
  void bindRefusesAStreamBoundTwiceOrOfAnotherSchema() {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", S);
    Stream fwd = b.forward("f", S);
    assertThatThrownBy(() -> b.bind(in, in)).isInstanceOf(WiringException.class).hasMessageContaining("not a forward");
    assertThatThrownBy(() -> b.bind(fwd, in.map(Schema.parse("id INT NOT NULL"), r -> Row.of(r.get(0)))))
        .isInstanceOf(WiringException.class).hasMessageContaining("has schema");
    b.bind(fwd, in);
    assertThatThrownBy(() -> b.bind(fwd, in)).isInstanceOf(WiringException.class).hasMessageContaining("already bound");
  }

  @Test
  void joinRefusesAStreamOfAnotherBuilder() {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", S);
    Stream foreign = Graph.builder().input("other", S);
    assertThatThrownBy(() -> in.join(foreign, JoinType.INNER, List.of("id"), List.of("id")))
        .isInstanceOf(WiringException.class).hasMessageContaining("another graph builder");
    assertThatThrownBy(() -> in.join(foreign, JoinType.LEFT, "id", "id"))
        .isInstanceOf(WiringException.class).hasMessageContaining("another graph builder");
  }
}
