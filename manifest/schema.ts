/**
 * The CortexPrism manifest as a zod schema: every documented field, plus the
 * few this runtime adds (`kind: "module"` with `command`, `mcp`, `limits`).
 * Unknown top-level keys (such as `aiDisclosure`) are kept and ignored.
 *
 * @module
 */
import { z } from "zod";
import semver from "semver";
import { CAPABILITIES, TOOL_CAPABILITIES } from "./capabilities.ts";
import { EVENT_TYPES } from "../plugin_api/types.ts";
import type { Manifest } from "./types.ts";

/** Plugin names: kebab-case, 1 to 64 characters; they name folders, so nothing else. */
export const PLUGIN_NAME_PATTERN: RegExp = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const pluginName = z.string().max(64, "a plugin name has at most 64 characters").regex(
  PLUGIN_NAME_PATTERN,
  "a plugin name must be kebab-case (lowercase letters, digits and single hyphens, such as my-plugin)",
);

const semverVersion = z.string().refine((v) => semver.valid(v) !== null, {
  message: "expected a semantic version such as 1.0.0",
});

const semverRange = z.string().refine((v) => semver.validRange(v) !== null, {
  message: "expected a semver range such as ^1.2.0 or >=1.0.0",
});

const capability = z.enum(CAPABILITIES as [string, ...string[]], {
  error: (issue) => `unknown capability ${JSON.stringify(issue.input)}`,
});

const eventType = z.enum(EVENT_TYPES as [string, ...string[]], {
  error: (issue) => `unknown event type ${JSON.stringify(issue.input)}`,
});

/** A tool parameter as declared in the manifest. */
export const toolParamSchema: z.ZodType<import("./types.ts").ToolParamDeclaration> = z.looseObject({
  name: z.string().min(1),
  type: z.enum(["string", "number", "boolean", "object", "array"]),
  description: z.string().default(""),
  required: z.boolean().optional(),
  enum: z.array(z.string()).optional(),
});

/** A tool as declared in the manifest. */
export const toolDeclarationSchema = z.looseObject({
  name: z.string().regex(
    /^[A-Za-z0-9_-]{1,64}$/,
    "a tool name has 1 to 64 letters, digits, '_' or '-'",
  ),
  description: z.string().default(""),
  params: z.array(toolParamSchema).default([]),
  capabilities: z.array(z.enum(TOOL_CAPABILITIES)).optional(),
});

const cliCommandSchema = z.looseObject({
  name: z.string().regex(PLUGIN_NAME_PATTERN, "a command name must be kebab-case"),
  description: z.string().default(""),
  args: z.array(z.looseObject({
    name: z.string(),
    type: z.string(),
    description: z.string().optional(),
    required: z.boolean().optional(),
  })).optional(),
  options: z.array(z.looseObject({
    name: z.string(),
    type: z.string(),
    description: z.string().optional(),
    flag: z.string().optional(),
  })).optional(),
});

const settingFieldSchema = z.looseObject({
  key: z.string().min(1),
  label: z.string(),
  type: z.enum(["text", "number", "boolean", "select", "secret"]),
  defaultValue: z.unknown().optional(),
  /** Published plugins write `default`; it is read as `defaultValue`. */
  default: z.unknown().optional(),
  options: z.array(z.object({ label: z.string(), value: z.string() })).optional(),
  description: z.string().optional(),
});

const uiSchema = z.looseObject({
  panels: z.array(z.looseObject({
    id: z.string().min(1),
    title: z.string(),
    icon: z.string().optional(),
    htmlPath: z.string().min(1),
  })).optional(),
  widgets: z.array(z.looseObject({
    id: z.string().min(1),
    title: z.string(),
    type: z.enum(["html", "chart", "table"]),
    config: z.record(z.string(), z.unknown()).optional(),
  })).optional(),
  settings: z.array(z.looseObject({
    section: z.string(),
    fields: z.array(settingFieldSchema),
  })).optional(),
});

const configSchema = z.looseObject({
  providers: z.array(z.looseObject({
    kind: z.string(),
    label: z.string(),
    defaultModel: z.string(),
  })).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
});

/** Limits the person or author may set; the runtime's defaults apply otherwise. */
const limitsSchema = z.object({
  timeoutMs: z.number().int().min(1).max(600_000).optional(),
  maxMemoryMb: z.number().int().min(1).max(4096).optional(),
});

/** The manifest schema. */
export const manifestSchema = z.looseObject({
  name: pluginName,
  version: semverVersion,
  description: z.string(),
  kind: z.enum(["esm", "mcp", "wasm", "module"]),
  entryPoint: z.string().min(1, "entryPoint must not be empty"),
  runtime: z.enum(["deno", "wasm", "process"]),
  capabilities: z.array(capability),
  author: z.string().optional(),
  homepage: z.string().optional(),
  license: z.string().optional(),
  repository: z.string().optional(),
  hash: z.string().regex(
    /^(sha256[-:])?[0-9a-fA-F]{64}$/,
    "expected a SHA-256 hex digest (64 hex digits, optionally prefixed sha256-)",
  ).optional(),
  signature: z.string().optional(),
  dependencies: z.record(pluginName, semverRange).optional(),
  peerDependencies: z.record(z.string(), semverRange).optional(),
  tools: z.array(toolDeclarationSchema).optional(),
  cliCommands: z.array(cliCommandSchema).optional(),
  ui: uiSchema.optional(),
  config: configSchema.optional(),
  events: z.array(eventType).optional(),
  command: z.array(z.string().min(1)).min(1).optional(),
  mcp: z.record(z.string(), z.unknown()).optional(),
  limits: limitsSchema.optional(),
}).superRefine((m, ctx) => {
  const expectedRuntime = { esm: "deno", mcp: "deno", wasm: "wasm", module: "process" }[m.kind];
  if (m.runtime !== expectedRuntime) {
    ctx.addIssue({
      code: "custom",
      path: ["runtime"],
      message: `kind "${m.kind}" runs with runtime "${expectedRuntime}", not "${m.runtime}"`,
    });
  }
  if (m.kind === "module" && !m.command) {
    ctx.addIssue({
      code: "custom",
      path: ["command"],
      message: 'a "module" plugin needs "command", the argv that starts it',
    });
  }
  if (m.events?.length && !m.capabilities.includes("events:listener")) {
    ctx.addIssue({
      code: "custom",
      path: ["events"],
      message: 'subscribing to events needs the "events:listener" capability',
    });
  }
  const seen = new Set<string>();
  for (const [i, tool] of (m.tools ?? []).entries()) {
    if (seen.has(tool.name)) {
      ctx.addIssue({
        code: "custom",
        path: ["tools", i, "name"],
        message: `tool "${tool.name}" is declared twice`,
      });
    }
    seen.add(tool.name);
  }
});

export type { Manifest, ToolDeclaration } from "./types.ts";

// The schema's output must stay assignable to the documented types.
const _schemaMatchesTypes: (m: z.infer<typeof manifestSchema>) => Manifest = (m) => m;
void _schemaMatchesTypes;

/** The manifest's JSON Schema (draft 2020-12), for editors and `cortex plugins schema`. */
export function manifestJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(manifestSchema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
}
