package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Input;
import dev.rivulet.engine.Output;
import dev.rivulet.engine.Schema;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The public API is sealed: each module exports only its API package (the engine's shortcuts go to
 * the query layer alone), and the shortcuts are not public methods of the engine's handles.
 */
class ApiSealTest {
  private static ModuleDescriptor descriptor(String classes, String module) {
    return ModuleFinder.of(Path.of(classes)).find(module).orElseThrow().descriptor();
  }

  private static Map<String, Set<String>> exports(ModuleDescriptor d) {
    return d.exports().stream().collect(Collectors.toMap(ModuleDescriptor.Exports::source,
        ModuleDescriptor.Exports::targets));
  }

  @Test
  void modulesExportOnlyTheirApi() {
    assertThat(exports(descriptor("target/classes", "dev.rivulet.query")))
        .containsExactly(Map.entry("dev.rivulet.query", Set.of()));
    assertThat(exports(descriptor("../rivulet-engine/target/classes", "dev.rivulet.engine")))
        .containsOnly(Map.entry("dev.rivulet.engine", Set.of()),
            Map.entry("dev.rivulet.engine.internal", Set.of("dev.rivulet.query")));
  }

  @Test
  void theEnginesShortcutsAreNotPublicMethods() {
    for (Method m : Input.class.getDeclaredMethods()) {
      if (Modifier.isPublic(m.getModifiers())) {
        assertThat(Arrays.asList(m.getParameterTypes())).as("Input.%s", m.getName()).doesNotContain(Schema.class);
      }
    }
    Set<String> publicOutput = Arrays.stream(Output.class.getDeclaredMethods())
        .filter(m -> Modifier.isPublic(m.getModifiers())).map(Method::getName).collect(Collectors.toSet());
    assertThat(publicOutput).doesNotContain("deltaRow", "deltaWeight", "deltaPosition", "deltaSize",
        "spliceDeltaInto");
  }
}
