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

/** Turns zod issues into one plain sentence per issue: `field: what was expected`. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    let message = issue.message;
    if (issue.code === "invalid_type" && message.startsWith("Invalid input")) {
      message = `expected ${issue.expected}`;
      if (message === "expected undefined" || message.includes("received undefined")) {
        message = "is required";
      }
    }
    return `${formatIssuePath(issue.path)}: ${message}`;
  });
}
