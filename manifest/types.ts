/**
 * The manifest as a TypeScript type, one documented field at a time.
 * `schema.ts` checks values against it.
 *
 * @module
 */

/** A tool parameter as declared in the manifest. */
export interface ToolParamDeclaration {
  /** Parameter name. */
  name: string;
  /** JSON type. */
  type: "string" | "number" | "boolean" | "object" | "array";
  /** Description (default empty). */
  description: string;
  /** Whether it must be given. */
  required?: boolean;
  /** Allowed values for a string parameter. */
  enum?: string[];
}

/** A tool as declared in the manifest. */
export interface ToolDeclaration {
  /** Tool name within the plugin. */
  name: string;
  /** What it does. */
  description: string;
  /** Its parameters. */
  params: ToolParamDeclaration[];
  /** Capabilities it needs (a subset of the manifest's). */
  capabilities?: string[];
}

/** A CLI subcommand declaration. */
export interface CliCommandDeclaration {
  /** Subcommand name (kebab-case). */
  name: string;
  /** Shown in help. */
  description: string;
  /** Positional arguments. */
  args?: { name: string; type: string; description?: string; required?: boolean }[];
  /** Flag options. */
  options?: { name: string; type: string; description?: string; flag?: string }[];
}

/** One field of a settings form. */
export interface UiSettingField {
  /** Config key. */
  key: string;
  /** Label. */
  label: string;
  /** Input type; `secret` values never appear in events. */
  type: "text" | "number" | "boolean" | "select" | "secret";
  /** Default value. */
  defaultValue?: unknown;
  /** Default value, as some published plugins spell it; `defaultValue` wins when both are given. */
  default?: unknown;
  /** Choices for `select`. */
  options?: { label: string; value: string }[];
  /** Help text. */
  description?: string;
}

/** UI contributions: panels, widgets and settings forms. */
export interface UiContribution {
  /** Web UI panels. */
  panels?: { id: string; title: string; icon?: string; htmlPath: string }[];
  /** Dashboard widgets. */
  widgets?: {
    id: string;
    title: string;
    type: "html" | "chart" | "table";
    config?: Record<string, unknown>;
  }[];
  /** Settings forms. */
  settings?: { section: string; fields: UiSettingField[] }[];
}

/** Config contributions. */
export interface ConfigContribution {
  /** LLM provider declarations. */
  providers?: { kind: string; label: string; defaultModel: string }[];
  /** Default config values for this plugin. */
  settings?: Record<string, unknown>;
}

/** A valid plugin manifest. */
export interface Manifest {
  /** Unique kebab-case name; the primary key. */
  name: string;
  /** Semantic version. */
  version: string;
  /** Short description. */
  description: string;
  /** How the plugin is loaded. `module` is a CortexFS external module (this runtime's addition). */
  kind: "esm" | "mcp" | "wasm" | "module";
  /** Path of the module, URL, or WASM binary, relative to the manifest. */
  entryPoint: string;
  /** Execution target: `deno` for esm and mcp, `wasm` for wasm, `process` for module. */
  runtime: "deno" | "wasm" | "process";
  /** Declared extension points and permissions. */
  capabilities: string[];
  /** Author. */
  author?: string;
  /** Homepage URL. */
  homepage?: string;
  /** SPDX license. */
  license?: string;
  /** Repository URL. */
  repository?: string;
  /** SHA-256 of the entry point's bytes. */
  hash?: string;
  /** Signature (see the signing docs). */
  signature?: string;
  /** Plugins required, by name, with semver ranges. */
  dependencies?: Record<string, string>;
  /** Host version constraint, such as `{ "cortex": ">=1.0.0" }`. */
  peerDependencies?: Record<string, string>;
  /** Tool declarations. */
  tools?: ToolDeclaration[];
  /** CLI subcommands. */
  cliCommands?: CliCommandDeclaration[];
  /** UI contributions. */
  ui?: UiContribution;
  /** Config contributions. */
  config?: ConfigContribution;
  /** Event types the plugin subscribes to. */
  events?: string[];
  /** For `kind: "module"`: the argv that starts the module, run from its folder. */
  command?: string[];
  /** For `kind: "mcp"`: how to start a stdio server (see mcp-bridge/README.md). */
  mcp?: Record<string, unknown>;
  /** Limits: the call and hook deadline, and a memory cap, where the loader supports it. */
  limits?: { timeoutMs?: number; maxMemoryMb?: number };
  /** Unknown keys are kept and ignored. */
  [key: string]: unknown;
}
