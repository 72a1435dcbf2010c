import { type FlagSpec, parseCommandArgs, type ParsedArgs } from "./args.ts";
import { EXIT, type Io, reportError } from "./output.ts";

/** A CLI command: takes its own argv (after the verb) and returns an exit code. */
export type Command = (argv: string[], io: Io) => Promise<number>;

/** What a command's body gets. */
export interface CommandInput {
  /** Parsed arguments. */
  args: ParsedArgs;
  /** Whether `--json` was given. */
  json: boolean;
  /** Where to write. */
  io: Io;
}

/** A command's definition. */
export interface CommandSpec {
  /** One line of usage, shown by `--help` and on usage errors. */
  usage: string;
  /** Flags beyond `--json` and `--help`. */
  flags?: Record<string, FlagSpec>;
  /** Runs the command; returns an exit code. */
  run(input: CommandInput): Promise<number>;
}

/** Makes a {@link Command} from a spec: parsing, `--help`, and errors in the requested form. */
export function defineCommand(spec: CommandSpec): Command {
  return async (argv, io) => {
    const json = argv.includes("--json");
    try {
      const args = parseCommandArgs(argv, spec.flags ?? {});
      if (args.flags.help) {
        io.out(`usage: ${spec.usage}`);
        return EXIT.ok;
      }
      return await spec.run({ args, json, io });
    } catch (error) {
      const code = reportError(io, error, json);
      if (code === EXIT.usage && !json) io.err(`usage: ${spec.usage}`);
      return code;
    }
  };
}

/** Prints `value` as JSON when `json`, else prints `text()`. */
export function print(input: CommandInput, value: unknown, text: () => string): void {
  if (input.json) input.io.out(JSON.stringify(value, null, 2));
  else input.io.out(text());
}
