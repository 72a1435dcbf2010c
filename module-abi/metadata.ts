/**
 * Module identity: kind, metadata and the check every registry and every
 * `ready` frame applies to it.
 *
 * @module
 */
import { CortexError } from "../runtime/errors.ts";
import { isValidName } from "./name.ts";

/** The static API identifier, versioning the in-process module API. */
export const MODULE_API_ID = "cortexfs.module/v1";

/** The extension domains that share the module lifecycle, lowercase as on the wire. */
export const MODULE_KINDS = [
  "agent",
  "tool",
  "channel",
  "model",
  "context",
] as const;

/** One extension domain: `agent`, `tool`, `channel`, `model` or `context`. */
export type ModuleKind = (typeof MODULE_KINDS)[number];

/** A provider-neutral capability a module declares. Declaring never grants permission. */
export interface ModuleCapability {
  /** A stable name following the name rule. */
  readonly name: string;
  /** A human-readable description; may be empty, never holds NUL. */
  readonly description: string;
}

/** The immutable identity and capability declaration of one module. */
export interface ModuleMetadata {
  /** The stable module id, following the name rule. */
  readonly id: string;
  /** The implementation version; any non-blank string. */
  readonly version: string;
  /** The extension domain. */
  readonly kind: ModuleKind;
  /** The declared capabilities; may be empty. */
  readonly capabilities: readonly ModuleCapability[];
}

/** Where a metadata value first goes wrong: the field path and whether it is missing or invalid. */
export interface MetadataProblem {
  /** The dotted path under the metadata, such as `capabilities.0.name`. */
  readonly field: string;
  /** `missing` when absent, `invalid` when present with the wrong type or value. */
  readonly problem: "missing" | "invalid";
}

// Rust's `str::trim` strips the Unicode White_Space set, which JS `trim` does not match
// exactly (it also strips U+FEFF); the property escape keeps "blank" identical to the crate.
const BLANK = /^\p{White_Space}*$/u;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Finds the first way `value` fails to be valid metadata, or `undefined` when it is valid.
 * Unknown fields are ignored, as on the wire.
 *
 * @example
 * ```ts
 * import { findMetadataProblem } from "./metadata.ts";
 * findMetadataProblem({ id: "a", version: "1", kind: "tool" });
 * // { field: "capabilities", problem: "missing" }
 * ```
 */
export function findMetadataProblem(
  value: unknown,
): MetadataProblem | undefined {
  if (!isObject(value)) return { field: "", problem: "invalid" };
  for (const field of ["id", "version", "kind", "capabilities"]) {
    if (!Object.hasOwn(value, field)) return { field, problem: "missing" };
  }
  if (!isValidName(value.id)) return { field: "id", problem: "invalid" };
  if (typeof value.version !== "string" || BLANK.test(value.version)) {
    return { field: "version", problem: "invalid" };
  }
  if (!(MODULE_KINDS as readonly unknown[]).includes(value.kind)) {
    return { field: "kind", problem: "invalid" };
  }
  if (!Array.isArray(value.capabilities)) {
    return { field: "capabilities", problem: "invalid" };
  }
  for (const [i, capability] of value.capabilities.entries()) {
    const at = `capabilities.${i}`;
    if (!isObject(capability)) return { field: at, problem: "invalid" };
    if (!Object.hasOwn(capability, "name")) {
      return { field: `${at}.name`, problem: "missing" };
    }
    if (!Object.hasOwn(capability, "description")) {
      return { field: `${at}.description`, problem: "missing" };
    }
    if (!isValidName(capability.name)) {
      return { field: `${at}.name`, problem: "invalid" };
    }
    if (
      typeof capability.description !== "string" ||
      capability.description.includes("\0")
    ) {
      return { field: `${at}.description`, problem: "invalid" };
    }
  }
  return undefined;
}

/**
 * Whether `value` is valid metadata: `id` and every capability name follow the
 * name rule, `version` is not blank, `kind` is known and no description holds NUL.
 *
 * @example
 * ```ts
 * import { isValidMetadata } from "./metadata.ts";
 * isValidMetadata({ id: "tool.echo", version: "1.0.0", kind: "tool", capabilities: [] }); // true
 * ```
 */
export function isValidMetadata(value: unknown): value is ModuleMetadata {
  return findMetadataProblem(value) === undefined;
}

/**
 * Checks `value` and returns a frozen copy holding only the known fields.
 * Throws a `CortexError` with code `invalid_metadata` naming the first bad field.
 *
 * @example
 * ```ts
 * import { validateMetadata } from "./metadata.ts";
 * const meta = validateMetadata({
 *   id: "channel.example",
 *   version: "1.0.0",
 *   kind: "channel",
 *   capabilities: [{ name: "text", description: "send and receive text" }],
 * });
 * ```
 */
export function validateMetadata(value: unknown): ModuleMetadata {
  const found = findMetadataProblem(value);
  if (found) {
    const where = found.field === "" ? "metadata" : `metadata.${found.field}`;
    throw new CortexError("invalid_metadata", `${where} is ${found.problem}`);
  }
  const meta = value as ModuleMetadata;
  return Object.freeze({
    id: meta.id,
    version: meta.version,
    kind: meta.kind,
    capabilities: Object.freeze(
      meta.capabilities.map((c) => Object.freeze({ name: c.name, description: c.description })),
    ),
  });
}
