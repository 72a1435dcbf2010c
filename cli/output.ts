import { CortexError, toCortexError } from "../runtime/errors.ts";

/** Exit codes: 0 success, 1 the operation failed, 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Where a command writes; swapped in tests. */
export interface Io {
  /** Writes a line to standard output. */
  out(line: string): void;
  /** Writes a line to standard error. */
  err(line: string): void;
  /** Asks the person a yes/no question; false when nobody can answer. */
  confirm(question: string): boolean;
}

/** The process's own streams. */
export const processIo: Io = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  confirm: (question) => Deno.stdin.isTerminal() ? confirm(question) : false,
};

/** A usage error (exit 2). */
export function usage(message: string): CortexError {
  return new CortexError("usage", message);
}

/** Reports an error in the requested form and returns its exit code. */
export function reportError(io: Io, error: unknown, json: boolean): number {
  const e = toCortexError(error);
  if (json) io.out(JSON.stringify({ error: { code: e.code, message: e.message } }));
  else io.err(`error: ${e.message} (${e.code})`);
  return e.code === "usage" ? EXIT.usage : EXIT.failed;
}

/** Formats rows as an aligned text table. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}
