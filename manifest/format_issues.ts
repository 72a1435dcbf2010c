import type { z } from "zod";

/** Formats a zod issue path as `tools[0].params[1].type`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Turns zod issues into one plain sentence per issue: `field: what was
 * expected`. With the raw `input`, a field that is absent says "is required"
 * rather than which type or value it should have had.
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[], input?: unknown): string[] {
  return issues.map((issue) => {
    const where = formatIssuePath(issue.path);
    const absent = input !== undefined && issue.path.length > 0 && valueAt(input, issue.path) === undefined;
    if (absent && (issue.code === "invalid_type" || issue.code === "invalid_value")) {
      return `${where}: is required`;
    }
    let message = issue.message;
    if (issue.code === "invalid_type" && message.startsWith("Invalid input")) {
      message = `expected ${issue.expected}, got ${describe(valueAt(input, issue.path))}`;
    }
    return `${where}: ${message}`;
  });
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}
