package dev.rivulet.engine;

/**
 * Work and space counters of one operator.
 *
 * @param name the operator's name in its graph ({@code kind#n} unless named)
 * @param kind the operator kind, e.g. {@code join}
 * @param retained rows (or entries) of state the operator holds now
 * @param examined rows the operator has consumed or visited since the counters were reset
 */
public record OperatorStats(String name, String kind, long retained, long examined) {}
