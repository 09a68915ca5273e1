/** Seeded histories, naive reference evaluators and the trace runner for Rivulet's oracle tests. */
module dev.rivulet.testkit {
  requires transitive dev.rivulet.engine;

  exports dev.rivulet.testkit;
}
