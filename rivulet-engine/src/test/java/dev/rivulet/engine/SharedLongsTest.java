package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Canonical small integers are one shared instance per value; the rest are left as they come. */
class SharedLongsTest {
  @Test
  void integersOfEveryBoxInTheRangeBecomeOneInstance() {
    for (long v : new long[] {0, 127, 128, 1_000, SharedLongs.SIZE - 1}) {
      Object fromInt = Row.of((int) v).get(0);
      Object fromLong = Row.of(Long.valueOf(v)).get(0);
      Object fromFreshLong = Values.canonical(Long.valueOf(v));
      Object fromShort = Values.canonical((short) Math.min(v, Short.MAX_VALUE));
      assertThat(fromInt).isEqualTo(v).isSameAs(fromLong).isSameAs(fromFreshLong);
      assertThat(fromShort).isEqualTo(Math.min(v, Short.MAX_VALUE));
      if (v <= Short.MAX_VALUE) {
        assertThat(fromShort).isSameAs(fromInt);
      }
    }
  }

  @Test
  void integersOutsideTheRangeKeepTheirOwnInstances() {
    for (long v : new long[] {-1, -200, SharedLongs.SIZE, 1_000_000, Long.MAX_VALUE, Long.MIN_VALUE}) {
      Long a = new Long(v); // distinct boxes on purpose
      Long b = new Long(v);
      assertThat(Values.canonical(a)).isSameAs(a).isEqualTo(b);
      assertThat(Values.canonical(b)).isSameAs(b);
    }
  }

  @Test
  void theFirstInstanceSeenIsTheOneShared() {
    long v = 9_999; // no other test of this class uses it
    Long mine = new Long(v);
    Object first = Values.canonical(mine);
    Object again = Values.canonical(new Long(v));
    assertThat(again).isSameAs(first).isEqualTo(v);
    assertThat(Row.of((int) v).get(0)).isSameAs(first);
  }
}
