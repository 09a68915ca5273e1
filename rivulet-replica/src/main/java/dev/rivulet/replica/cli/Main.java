package dev.rivulet.replica.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code rivulet} command: {@code rivulet demo} and {@code rivulet help}. */
@Command(name = "rivulet", mixinStandardHelpOptions = true, version = "rivulet 0.1.0-SNAPSHOT",
    description = "Live queries over an embedded SQL database.",
    subcommands = {DemoCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
  @Spec
  CommandSpec spec;

  /** Runs the command line and exits with its exit code. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new Main()).execute(args));
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name a subcommand, e.g. 'rivulet demo'");
  }
}
