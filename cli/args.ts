import { parseArgs as nodeParseArgs } from "node:util";
import { usage } from "./output.ts";

/** A flag a command accepts. */
export interface FlagSpec {
  /** `string` takes a value; `boolean` does not. */
  type: "string" | "boolean";
  /** Whether it may be given more than once. */
  multiple?: boolean;
  /** A one-letter alias. */
  short?: string;
}

/** Parsed command-line arguments. */
export interface ParsedArgs {
  /** Positional arguments. */
  positionals: string[];
  /** Flag values by name. */
  flags: Record<string, string | boolean | string[] | undefined>;
}

/**
 * Parses `argv` with Node's built-in `util.parseArgs`, turning its errors
 * into usage errors that name the bad flag.
 */
export function parseCommandArgs(argv: string[], flags: Record<string, FlagSpec>): ParsedArgs {
  try {
    const { values, positionals } = nodeParseArgs({
      args: argv,
      options: { ...flags, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
    return { positionals, flags: values as ParsedArgs["flags"] };
  } catch (error) {
    throw usage((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ""));
  }
}

/** Takes exactly `count` positionals, naming what is missing or extra. */
export function expectPositionals(args: ParsedArgs, names: string[], optional = 0): string[] {
  const required = names.length - optional;
  if (args.positionals.length < required) {
    throw usage(`missing ${names.slice(args.positionals.length, required).map((n) => `<${n}>`).join(" ")}`);
  }
  if (args.positionals.length > names.length) {
    throw usage(`unexpected argument "${args.positionals[names.length]}"`);
  }
  return args.positionals;
}

/** Parses a JSON argument, naming the flag when it is not JSON. */
export function parseJsonArg(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw usage(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}
