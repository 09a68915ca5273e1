package dev.rivulet.engine;

/**
 * The user function of {@link Stream#reduce}: maps the current contents of one group to the
 * group's output rows. It must be pure (same input, same output) because the operator calls it on
 * the before and after contents of changed groups only and emits the difference.
 */
@FunctionalInterface
public interface Reducer {
  /**
   * @param key the group key (the key columns' values)
   * @param group the group's rows with their positive multiplicities; never empty
   * @return the group's output rows with their multiplicities (non-positive ones are an error)
   */
  ZSet reduce(Row key, ZSet group);

  /**
   * {@link #reduce(Row, ZSet)} of a group whose last output was {@code previous} (empty for a
   * group that had none): the same rows, which an implementation may build from equal parts of
   * {@code previous} instead of anew. The reduce operator calls this one.
   */
  default ZSet reduce(Row key, ZSet group, ZSet previous) {
    return reduce(key, group);
  }
}
