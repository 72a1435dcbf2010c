/**
 * Reads an `mcp` plugin's manifest into an {@link McpServerSpec}. The rules
 * are documented in `mcp-bridge/README.md`.
 *
 * @module
 */
import { isAbsolute, join, normalize, sep } from "node:path";
import { z } from "zod";
import { CortexError } from "../../runtime/errors.ts";
import { denoDir } from "./deno_dir.ts";
import { denoPermissionFlags } from "./deno_permission_flags.ts";
import type { McpServerSpec } from "./spec.ts";

/** The manifest fields this reads. */
export interface McpManifestFields {
  /** A URL for HTTP servers; otherwise the server's main file (relative) or an `npm:` specifier. */
  entryPoint: string;
  /** The optional `mcp` section: `command`, `args`, `env`, `envFrom`, `headers`. */
  mcp?: unknown;
  /** The plugin's effective capabilities, from which a Deno server's permissions are derived. */
  capabilities?: readonly string[];
}

/** Where the plugin lives and what the host environment holds. */
export interface ParseMcpEntryPointOptions {
  /** The plugin's folder (absolute); the server's working folder. */
  pluginDir: string;
  /** The plugin's data folder, readable (and writable with a write grant) by a Deno server. */
  dataDir?: string;
  /** Reads the host's environment, for `envFrom` and `PATH`; defaults to `Deno.env.get`. */
  hostEnv?: (name: string) => string | undefined;
  /** The Deno binary for JavaScript and TypeScript servers; defaults to `Deno.execPath()`. */
  denoPath?: string;
  /** Hosts a Deno server may never reach, such as the runtime's own HTTP API. */
  denyNet?: string[];
  /** Paths a Deno server may never read, such as the runtime's home. */
  denyRead?: string[];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const envName = z.string().regex(ENV_NAME, "an environment variable name has letters, digits and '_'");

const mcpSection = z.strictObject({
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: z.record(envName, z.string()).optional(),
  envFrom: z.array(envName).optional(),
  headers: z.record(z.string().regex(/^[A-Za-z0-9-]+$/, "a header name"), z.string()).optional(),
});

const NPM_SPECIFIER = /^npm:(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(@[\w.^~<>=*+-]+)?(\/[\w./-]*)?$/i;
const SCRIPT_EXTENSION = /\.(m|c)?(j|t)sx?$/i;

/**
 * Decides how to reach an `mcp` plugin's server: an `http(s)://` entry point
 * is a Streamable HTTP server; an `npm:` specifier or a `.js`/`.ts` file runs
 * under `deno run` with permissions derived from the capabilities; anything
 * else is a native command (`sandboxed: false`).
 *
 * @example
 * ```ts
 * import { parseMcpEntryPoint } from "./parse_entry_point.ts";
 * const spec = parseMcpEntryPoint(
 *   { entryPoint: "server.ts", mcp: { envFrom: ["API_KEY"] }, capabilities: ["network:fetch"] },
 *   { pluginDir: "/home/me/.cortex/data/plugins/weather" },
 * );
 * // spec.transport === "stdio", spec.command === Deno.execPath(), spec.sandboxed === true
 * ```
 */
export function parseMcpEntryPoint(
  manifest: McpManifestFields,
  options: ParseMcpEntryPointOptions,
): McpServerSpec {
  const parsed = mcpSection.safeParse(manifest.mcp ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = ["mcp", ...issue.path.map(String)].join(".");
    throw invalid(`${where}: ${issue.message}`);
  }
  const section = parsed.data;
  const entry = manifest.entryPoint;

  if (/^https?:\/\//i.test(entry)) {
    if (section.command || section.args || section.env || section.envFrom) {
      throw invalid(
        "an http(s) entryPoint takes only mcp.headers; command, args and env are for stdio servers",
      );
    }
    if (!URL.canParse(entry)) throw invalid(`entryPoint is not a valid URL: ${entry}`);
    return { transport: "http", url: entry, ...(section.headers ? { headers: section.headers } : {}) };
  }
  if (section.headers) throw invalid("mcp.headers is only for http(s) entry points");

  const hostEnv = options.hostEnv ?? ((name: string) => Deno.env.get(name));
  const env = childEnv(section, hostEnv);
  const isNpm = entry.startsWith("npm:");
  if (isNpm && !NPM_SPECIFIER.test(entry)) {
    throw invalid(`entryPoint is not a valid npm: specifier: ${entry}`);
  }
  const entryPath = isNpm ? entry : insidePluginDir(entry, options.pluginDir);
  const isScript = isNpm || SCRIPT_EXTENSION.test(entry);
  const command = section.command;

  if (isScript && (command === undefined || command === "node" || command === "deno")) {
    const cacheDir = denoDir(hostEnv);
    if (cacheDir) env.DENO_DIR = cacheDir;
    const flags = denoPermissionFlags(manifest.capabilities ?? [], {
      pluginDir: options.pluginDir,
      dataDir: options.dataDir,
      // npm packages often read their own files (templates, docs) at run time.
      extraRead: isNpm && cacheDir ? [join(cacheDir, "npm")] : [],
      denyNet: options.denyNet,
      denyRead: options.denyRead,
    });
    // The suggested `"command": "node", "args": ["server.js"]` names the entry twice.
    const serverArgs = [...(section.args ?? [])];
    if (serverArgs.length > 0 && sameEntry(serverArgs[0], entry)) serverArgs.shift();
    return {
      transport: "stdio",
      command: options.denoPath ?? Deno.execPath(),
      args: ["run", ...flags, ...(isNpm ? ["--no-config"] : []), entryPath, ...serverArgs],
      cwd: options.pluginDir,
      env,
      sandboxed: true,
    };
  }
  if (isNpm) throw invalid(`an npm: entryPoint runs under Deno; mcp.command "${command}" cannot run it`);
  return {
    transport: "stdio",
    command: command === undefined
      ? entryPath
      : command.startsWith("./")
      ? insidePluginDir(command, options.pluginDir)
      : command,
    args: [...(section.args ?? [])],
    cwd: options.pluginDir,
    env,
    sandboxed: false,
  };
}

function childEnv(
  section: z.infer<typeof mcpSection>,
  hostEnv: (name: string) => string | undefined,
): Record<string, string> {
  const env: Record<string, string> = { PATH: hostEnv("PATH") ?? "/usr/local/bin:/usr/bin:/bin" };
  Object.assign(env, section.env ?? {});
  // The person's own values win over the author's defaults.
  for (const name of section.envFrom ?? []) {
    const value = hostEnv(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

function insidePluginDir(path: string, pluginDir: string): string {
  if (isAbsolute(path) || /^[A-Za-z]:/.test(path)) {
    throw invalid(`entryPoint must be relative to the plugin folder, not absolute: ${path}`);
  }
  const normal = normalize(path);
  if (normal === ".." || normal.startsWith(`..${sep}`) || normal.startsWith("../")) {
    throw invalid(`entryPoint resolves outside the plugin folder: ${path}`);
  }
  return join(pluginDir, normal);
}

function sameEntry(arg: string, entry: string): boolean {
  return normalize(arg) === normalize(entry);
}

function invalid(message: string): CortexError {
  return new CortexError("mcp_manifest_invalid", message);
}
