/**
 * Policy: what a plugin may do. Declared capabilities, minus what the person
 * denied, plus nothing that was not declared. Caller labels are set by the
 * runtime's front doors and checked here.
 *
 * @module
 */
import type { PermissionOverride } from "./store/mod.ts";
import { CortexError } from "./errors.ts";

/**
 * Effective capabilities: declared minus denied. A grant never adds a
 * capability that was not declared; it only scopes one (hosts, commands).
 */
export function effectiveCapabilities(
  declared: readonly string[],
  overrides: readonly PermissionOverride[],
): string[] {
  const denied = new Set(overrides.filter((o) => o.decision === "deny").map((o) => o.capability));
  return [...new Set(declared)].filter((c) => !denied.has(c));
}

/** Caller labels: `person`, `hook`, `agent:<id>`, `module:<name>`. */
export type CallerLabel = "person" | "hook" | `agent:${string}` | `module:${string}`;

const CALLER_PATTERN = /^(person|hook|agent:[A-Za-z0-9._:@-]{1,128}|module:[A-Za-z0-9._-]{1,128})$/;

/** Whether `label` is a well-formed caller label. */
export function isCallerLabel(label: string): label is CallerLabel {
  return CALLER_PATTERN.test(label);
}

/** Builds the caller label for an agent, rejecting ids that could forge another label. */
export function agentCaller(id: string): CallerLabel {
  const label = `agent:${id}`;
  if (!isCallerLabel(label)) {
    throw new CortexError("usage", `agent id "${id}" has characters a caller label cannot hold`);
  }
  return label as CallerLabel;
}
