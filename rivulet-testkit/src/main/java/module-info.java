/** Seeded histories, naive reference evaluators and the trace runner for Rivulet's oracle tests. */
module dev.rivulet.testkit {
  requires transitive dev.rivulet.engine;
  requires java.sql; // the reference value model accepts java.sql dates as the engine does

  exports dev.rivulet.testkit;
}
