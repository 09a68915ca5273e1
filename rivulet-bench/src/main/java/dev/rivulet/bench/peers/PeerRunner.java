package dev.rivulet.bench.peers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the peers side by side with Rivulet's figures: starts {@code rivulet-bench/peers/run-peers.sh}
 * (which installs the pinned peers into a scratch folder and runs the shared workloads under
 * Node), echoes and collects its JSON figure lines, then merges them with Rivulet's lines and
 * prints the ratios (see {@link Ratios}). Rivulet's lines are read from a file or standard input,
 * so this class does not depend on any workload class.
 *
 * <pre>
 * java -cp rivulet-bench.jar dev.rivulet.bench.peers.PeerRunner [--rivulet FILE|-] [--peers FILE]
 *     [--save FILE] [--script PATH] [--timeout-min 30] [-- run-peers.sh arguments...]
 * </pre>
 *
 * {@code --peers FILE} reads earlier peer lines instead of running the script; {@code --save}
 * writes the collected peer lines. The script's output holds Rivulet's cold and memory lines too
 * (it starts a fresh JVM per cold run, interleaved with the peers' fresh Node processes); those
 * count as Rivulet's. The ratios are printed when Rivulet has any figure, cold lines first.
 * Exit status 1 when a peer's check failed or a peer timed out, 2 on bad arguments.
 */
public final class PeerRunner {
  private PeerRunner() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    String rivulet = null, peersFile = null, save = null, script = null;
    long timeoutMin = 30;
    List<String> scriptArgs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--rivulet" -> rivulet = arg(args, ++i);
        case "--peers" -> peersFile = arg(args, ++i);
        case "--save" -> save = arg(args, ++i);
        case "--script" -> script = arg(args, ++i);
        case "--timeout-min" -> timeoutMin = Long.parseLong(arg(args, ++i));
        case "--" -> {
          scriptArgs.addAll(List.of(args).subList(i + 1, args.length));
          i = args.length;
        }
        default -> {
          System.err.println("PeerRunner: unknown argument " + args[i]);
          System.exit(2);
        }
      }
    }
    List<String> peerLines = peersFile != null ? Files.readAllLines(Path.of(peersFile))
        : runScript(findScript(script), scriptArgs, timeoutMin);
    if (save != null) {
      Files.write(Path.of(save), peerLines);
    }
    boolean bad = false;
    boolean hasRivulet = false;
    Ratios ratios = new Ratios();
    for (Figure f : Ratios.parseAll(peerLines)) {
      ratios.add(f);
      bad |= f.metric().equals("timeout") || (f.metric().startsWith("correct") && !Boolean.TRUE.equals(f.value()));
      hasRivulet |= f.engine().equals("rivulet");
    }
    if (rivulet != null) {
      List<String> lines = rivulet.equals("-")
          ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).lines().toList()
          : Files.readAllLines(Path.of(rivulet));
      for (Figure f : Ratios.parseAll(lines)) {
        if (f.engine().equals("rivulet")) {
          ratios.add(f);
          hasRivulet = true;
        }
      }
    }
    if (hasRivulet) {
      ratios.print(System.out, System.err);
    }
    System.exit(bad ? 1 : 0);
  }

  private static String arg(String[] args, int i) {
    if (i >= args.length) {
      System.err.println("PeerRunner: " + args[i - 1] + " needs a value");
      System.exit(2);
    }
    return args[i];
  }

  /** The given script, else {@code peers/run-peers.sh} or {@code rivulet-bench/peers/run-peers.sh} from here. */
  static Path findScript(String given) {
    for (String p : given != null ? List.of(given) : List.of("peers/run-peers.sh", "rivulet-bench/peers/run-peers.sh")) {
      if (Files.isRegularFile(Path.of(p))) {
        return Path.of(p).toAbsolutePath();
      }
    }
    throw new IllegalStateException("run-peers.sh not found; run from the project or rivulet-bench folder, or pass --script");
  }

  /** Runs the script, echoing every stdout line as it arrives, and returns those lines. */
  static List<String> runScript(Path script, List<String> args, long timeoutMin) throws InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
    cmd.addAll(args);
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + cmd, e);
    }
    List<String> lines = new ArrayList<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = p.inputReader(StandardCharsets.UTF_8)) {
        for (String l; (l = r.readLine()) != null; ) {
          System.out.println(l);
          synchronized (lines) {
            lines.add(l);
          }
        }
      } catch (IOException e) {
        System.err.println("PeerRunner: reading the peers' output failed: " + e);
      }
    }, "peer-output");
    reader.start();
    if (!p.waitFor(timeoutMin, TimeUnit.MINUTES)) {
      System.err.println("PeerRunner: run-peers.sh took over " + timeoutMin + " min; stopping it");
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor();
    }
    reader.join(TimeUnit.SECONDS.toMillis(30));
    if (p.exitValue() != 0) {
      System.err.println("PeerRunner: run-peers.sh exited with status " + p.exitValue());
    }
    synchronized (lines) {
      return new ArrayList<>(lines);
    }
  }
}
