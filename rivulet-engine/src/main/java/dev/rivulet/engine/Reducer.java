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
}
