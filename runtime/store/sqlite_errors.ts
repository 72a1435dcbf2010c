import { CortexError } from "../errors.ts";

/** Maps a node:sqlite error to a stable {@link CortexError}. */
export function toStoreError(error: unknown, what: string): CortexError {
  if (error instanceof CortexError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const lower = message.toLowerCase();
  if (lower.includes("database is locked") || lower.includes("database table is locked")) {
    return new CortexError(
      "store_locked",
      `${what}: the database is locked by another process; try again when it is done`,
      { cause: error },
    );
  }
  if (lower.includes("readonly") || lower.includes("read-only")) {
    return new CortexError(
      "store_readonly",
      `${what}: the database or its folder is read-only`,
      { cause: error },
    );
  }
  if (lower.includes("unable to open")) {
    return new CortexError(
      "store_readonly",
      `${what}: cannot open the database file (check the folder exists and is writable)`,
      { cause: error },
    );
  }
  return new CortexError("store_failed", `${what}: ${message}`, { cause: error });
}
