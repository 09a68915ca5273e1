package dev.rivulet.testkit;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Generates valid {@link History histories} of changes to named inputs from a seeded {@link
 * Random}: the same seed and settings always give the same history.
 *
 * <p>Each history has {@code 1..maxSteps} steps of {@code 1..maxChangesPerStep} changes. A change
 * picks an input and one of: insert a new row; insert duplicates (weight 2 or 3, or another copy
 * of a present row); delete one copy of a present row; delete every copy of a present row; update
 * a present row (retract it and insert a copy with one column redrawn, which may give the same row
 * back, so a step can cancel itself out). Retractions only ever target rows present at that point
 * of the step, so the history is valid and any prefix of a step is too.
 *
 * <p>Values come from small per-type palettes (see {@code ValueDomain}; {@link #withPalette}
 * replaces one) so that keys collide; nullable columns are null with probability {@code
 * nullRate}. Immutable: the {@code with} methods return a changed copy.
 */
public final class HistoryGenerator {
  /** The settings; {@code palettes} replaces the default values of some column types. */
  private record Settings(int maxSteps, int maxChangesPerStep, int domainSize, double nullRate, boolean mixed,
      Map<ColumnType, List<Object>> palettes, double rareRate) {
    Settings {
      if (maxSteps < 1 || maxChangesPerStep < 1 || domainSize < 1 || nullRate < 0 || nullRate > 1) {
        throw new IllegalArgumentException("bad generator settings: steps " + maxSteps + ", changes "
            + maxChangesPerStep + ", domain " + domainSize + ", null rate " + nullRate);
      }
      palettes = Map.copyOf(palettes);
      if (rareRate < 0 || rareRate > 1) {
        throw new IllegalArgumentException("bad rare rate " + rareRate);
      }
    }

    Settings(int maxSteps, int maxChangesPerStep, int domainSize, double nullRate, boolean mixed,
        Map<ColumnType, List<Object>> palettes) {
      this(maxSteps, maxChangesPerStep, domainSize, nullRate, mixed, palettes, ValueDomain.RARE);
    }
  }

  private final Map<String, Schema> inputs;
  private final Settings settings;

  private HistoryGenerator(Map<String, Schema> inputs, Settings settings) {
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("a history generator needs at least one input");
    }
    this.inputs = inputs;
    this.settings = settings;
  }

  /**
   * A generator over {@code inputs} (name to schema; the map's order is part of the seed's
   * meaning): up to 12 steps of up to 6 changes, domains of 3 common values, null rate 0.2.
   */
  public static HistoryGenerator over(Map<String, Schema> inputs) {
    for (String name : inputs.keySet()) {
      if (!HistoryText.isName(name)) {
        throw new IllegalArgumentException("input name '" + name + "' must be letters, digits, '_', '-' or '.' (and not 'step')");
      }
    }
    return new HistoryGenerator(new LinkedHashMap<>(inputs), new Settings(12, 6, 3, 0.2, false, Map.of()));
  }

  /** A generator over one input. */
  public static HistoryGenerator over(String input, Schema schema) {
    return over(Map.of(input, schema));
  }

  private HistoryGenerator with(Settings s) {
    return new HistoryGenerator(inputs, s);
  }

  public HistoryGenerator withMaxSteps(int n) {
    Settings s = settings;
    return with(new Settings(n, s.maxChangesPerStep, s.domainSize, s.nullRate, s.mixed, s.palettes, s.rareRate));
  }

  public HistoryGenerator withMaxChangesPerStep(int n) {
    Settings s = settings;
    return with(new Settings(s.maxSteps, n, s.domainSize, s.nullRate, s.mixed, s.palettes, s.rareRate));
  }

  /** How many common values each column draws from (smaller: more collisions). */
  public HistoryGenerator withDomainSize(int n) {
    Settings s = settings;
    return with(new Settings(s.maxSteps, s.maxChangesPerStep, n, s.nullRate, s.mixed, s.palettes, s.rareRate));
  }

  /**
   * The probability that a value is drawn from the rare tail of its palette rather than from the
   * common values (default {@value ValueDomain#RARE}).
   */
  public HistoryGenerator withRareRate(double p) {
    Settings s = settings;
    return with(new Settings(s.maxSteps, s.maxChangesPerStep, s.domainSize, s.nullRate, s.mixed, s.palettes, p));
  }

  public HistoryGenerator withNullRate(double p) {
    Settings s = settings;
    return with(new Settings(s.maxSteps, s.maxChangesPerStep, s.domainSize, p, s.mixed, s.palettes, s.rareRate));
  }

  /**
   * Columns of {@code type} draw from {@code values} instead of the default palette: the first
   * {@code domainSize} are common, the rest rare. Values must be of the type (e.g. NaN and
   * infinities for {@code DOUBLE}, which the default palette leaves out).
   */
  public HistoryGenerator withPalette(ColumnType type, List<?> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("an empty palette for " + type);
    }
    Map<ColumnType, List<Object>> p = new EnumMap<>(ColumnType.class);
    p.putAll(settings.palettes);
    p.put(type, List.copyOf(values));
    Settings s = settings;
    return with(new Settings(s.maxSteps, s.maxChangesPerStep, s.domainSize, s.nullRate, s.mixed, p, s.rareRate));
  }

  /**
   * A generator that first draws, from the same {@link Random}, one of five shapes around these
   * settings, then generates with it: as set; a domain of 2 with null rate 0.4 (dense collisions,
   * many nulls); three times the steps of at most 2 changes (long histories of small steps: large
   * state next to each change); a quarter of the steps (at least 2) with four times the changes
   * (big transactions); edges: rare values at rate 0.6 and null rate 0.3. Deterministic per seed
   * like every generator.
   */
  public HistoryGenerator mixed() {
    Settings s = settings;
    return with(new Settings(s.maxSteps, s.maxChangesPerStep, s.domainSize, s.nullRate, true, s.palettes, s.rareRate));
  }

  public Map<String, Schema> inputs() {
    return java.util.Collections.unmodifiableMap(inputs);
  }

  /** The history of {@code seed}: {@code generate(new Random(seed))}. */
  public History generate(long seed) {
    return generate(new Random(seed));
  }

  public History generate(Random r) {
    Settings s = settings;
    if (s.mixed) {
      HistoryGenerator plain = with(new Settings(s.maxSteps, s.maxChangesPerStep, s.domainSize, s.nullRate, false,
          s.palettes, s.rareRate));
      return switch (r.nextInt(5)) {
        case 0 -> plain.generate(r);
        case 4 -> plain.withRareRate(0.6).withNullRate(0.3).generate(r);
        case 1 -> plain.withDomainSize(2).withNullRate(0.4).generate(r);
        case 2 -> plain.withMaxSteps(s.maxSteps * 3).withMaxChangesPerStep(2).generate(r);
        default -> plain.withMaxSteps(Math.max(2, s.maxSteps / 4)).withMaxChangesPerStep(s.maxChangesPerStep * 4)
            .generate(r);
      };
    }
    List<String> names = new ArrayList<>(inputs.keySet());
    Map<String, Present> present = new LinkedHashMap<>();
    for (String n : names) {
      present.put(n, new Present());
    }
    int steps = 1 + r.nextInt(s.maxSteps);
    List<History.Step> out = new ArrayList<>(steps);
    for (int i = 0; i < steps; i++) {
      int changes = 1 + r.nextInt(s.maxChangesPerStep);
      List<History.Change> cs = new ArrayList<>();
      while (cs.size() < changes) {
        String input = names.get(r.nextInt(names.size()));
        change(r, input, present.get(input), cs);
      }
      out.add(new History.Step(cs));
    }
    return new History(out);
  }

  private void change(Random r, String input, Present p, List<History.Change> out) {
    Schema schema = inputs.get(input);
    int roll = r.nextInt(100);
    if (p.isEmpty() || roll < 35) {
      add(out, p, input, newRow(r, schema), 1);
    } else if (roll < 45) {
      // Duplicates: a fresh row several times, or one more copy of a present row.
      if (r.nextBoolean()) {
        add(out, p, input, newRow(r, schema), 2 + r.nextInt(2));
      } else {
        add(out, p, input, p.pick(r), 1);
      }
    } else if (roll < 70) {
      add(out, p, input, p.pick(r), -1);
    } else if (roll < 78) {
      Row row = p.pick(r);
      add(out, p, input, row, -p.count(row));
    } else {
      Row before = p.pick(r);
      int col = r.nextInt(schema.width());
      Row after = before.with(col, draw(r, schema.column(col)));
      add(out, p, input, before, -1);
      add(out, p, input, after, 1);
    }
  }

  private static void add(List<History.Change> out, Present p, String input, Row row, long weight) {
    p.add(row, weight);
    out.add(new History.Change(input, row, weight));
  }

  private Object draw(Random r, Column c) {
    List<Object> palette = settings.palettes.getOrDefault(c.type(), ValueDomain.palette(c.type()));
    return ValueDomain.draw(r, c, palette, settings.domainSize, settings.nullRate, settings.rareRate);
  }

  private Row newRow(Random r, Schema schema) {
    Object[] values = new Object[schema.width()];
    boolean nulls = settings.nullRate > 0 && r.nextInt(10) == 0; // a row NULL wherever it may be
    for (int i = 0; i < values.length; i++) {
      Column c = schema.column(i);
      values[i] = nulls && c.nullable() ? null : draw(r, c);
    }
    return Row.of(values);
  }

  /** The rows of one input present so far, with a list for uniform picking. */
  private static final class Present {
    private final Map<Row, Long> counts = new LinkedHashMap<>();
    private final List<Row> rows = new ArrayList<>();

    boolean isEmpty() {
      return rows.isEmpty();
    }

    Row pick(Random r) {
      return rows.get(r.nextInt(rows.size()));
    }

    long count(Row row) {
      return counts.getOrDefault(row, 0L);
    }

    void add(Row row, long weight) {
      long m = counts.getOrDefault(row, 0L) + weight;
      if (m < 0) {
        throw new IllegalStateException("generator bug: negative multiplicity for " + row);
      }
      if (m == 0) {
        counts.remove(row);
        rows.remove(row);
      } else {
        if (!counts.containsKey(row)) {
          rows.add(row);
        }
        counts.put(row, m);
      }
    }
  }
}
