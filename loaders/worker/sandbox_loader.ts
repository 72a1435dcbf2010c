/**
 * The sandboxed ESM loader: untrusted and signed plugins run in Deno Workers
 * whose permissions come from their effective capabilities and the person's
 * grants, inside supervised `deno run` processes the runtime can always stop.
 *
 * @module
 */
import { dirname } from "node:path";
import { CortexError } from "../../runtime/errors.ts";
import type { SignatureVerifier } from "../../runtime/installer.ts";
import type { LoadedPlugin, Loader, LoadRequest } from "../../runtime/loader.ts";
import { DEFAULT_MAX_MESSAGE_CHARS } from "./_protocol.ts";
import { checkDefinition } from "./cell_services.ts";
import type { CrashPolicy } from "./crash_history.ts";
import { derivePermissions } from "./derive_permissions.ts";
import { PluginSupervisor } from "./plugin_supervisor.ts";
import { deniedPaths, sandboxEnv, type SandboxPaths, sandboxPaths } from "./sandbox_paths.ts";
import { SandboxPool, type SandboxProcessInfo } from "./sandbox_pool.ts";

/** Options for {@link SandboxLoader}. */
export interface SandboxLoaderOptions {
  /**
   * `shared` (default): plugins that need nothing beyond reading their own
   * code share processes; the others get one each. `per-plugin`: one
   * process per plugin.
   */
  layout?: "shared" | "per-plugin";
  /** The most plugins one shared process hosts (default 16). */
  maxPluginsPerProcess?: number;
  /** V8 heap cap per plugin in MiB, unless its manifest's `limits.maxMemoryMb` says less or more (default 128). */
  heapMb?: number;
  /** The highest heap cap a manifest may ask for: 256 MiB untrusted, 1024 MiB signed by default. */
  maxHeapMb?: { untrusted?: number; signed?: number };
  /** Resident memory a process may use beyond its plugins' heap caps, in MiB; 0 turns the check off (default 192). */
  rssBaseMb?: number;
  /** How often process memory is checked, in ms (default 250). */
  memoryCheckMs?: number;
  /** The largest message a sandbox may send, in UTF-16 code units of JSON (default 4 Mi). */
  maxMessageChars?: number;
  /** After a missed deadline, how long a Worker has to answer a ping before it counts as stuck (default 250 ms). */
  stuckGraceMs?: number;
  /** Heartbeat interval; default the plugin's deadline, at least 5 s. */
  heartbeatMs?: number;
  /** When a crashing plugin is stopped for good: 3 crashes in 5 minutes, backoff from 1 s, by default. */
  crashPolicy?: CrashPolicy;
  /** Ports of the runtime's own HTTP API on this machine: never reachable by a plugin. */
  daemonPorts?: number[];
  /** The runtime's home: its database, config, token and trusted keys are refused to every sandbox. */
  home?: string;
  /** Where sandbox sockets are created (default the system's temp folder). */
  socketDir?: string;
  /** Checks a signed plugin's signature again at every load (keys the person no longer trusts stop it). */
  verifySignature?: SignatureVerifier;
  /** The `deno` executable (default the one running the host). */
  denoPath?: string;
  /** Receives notes about problems no single plugin can be blamed for. */
  onDiagnostic?: (line: string) => void;
}

function realPath(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/**
 * Loads untrusted and signed ESM plugins into sandbox Workers.
 *
 * @example
 * ```ts ignore
 * import { Runtime } from "../../runtime/runtime.ts";
 * import { SandboxLoader } from "./sandbox_loader.ts";
 * const sandbox = new SandboxLoader({ home: "/tmp/cortex-home", daemonPorts: [8787] });
 * const runtime = await Runtime.open({ home: "/tmp/cortex-home", loaders: { esmSandboxed: sandbox } });
 * await runtime.install("./examples/esm/hello"); // untrusted by default: runs in the sandbox
 * await runtime.close();
 * await sandbox.close();
 * ```
 */
export class SandboxLoader implements Loader {
  /** The loader's name. */
  readonly name = "esm-sandbox";
  #options: SandboxLoaderOptions;
  #pool?: SandboxPool;
  #paths?: SandboxPaths;
  #supervisors = new Set<PluginSupervisor>();
  #closed = false;

  /**
   * Creates the loader; no process starts until the first load.
   *
   * @param options Layout, limits and what no plugin may reach.
   */
  constructor(options: SandboxLoaderOptions = {}) {
    this.#options = options;
  }

  /** Loads a plugin into a sandbox Worker. */
  async load(request: LoadRequest): Promise<LoadedPlugin> {
    if (this.#closed) throw new CortexError("sandbox_unavailable", "the sandbox loader is closed");
    const name = request.row.name;
    if (!request.entryFile) throw new CortexError("entry_missing", `plugin ${name} has no entry file`);
    await this.#checkSignature(request);
    const { pool, paths } = this.#setup();
    const o = this.#options;
    const dirs = {
      pluginDir: realPath(request.services.pluginDir),
      dataDir: realPath(request.services.dataDir),
    };
    const permissions = derivePermissions(
      { capabilities: request.capabilities, grants: request.grants, ...dirs },
      { sourceReads: paths.sourceReads, daemonPorts: o.daemonPorts },
    );
    for (const r of permissions.refused) {
      request.services.logger.warn(`[sandbox] grant "${r.grant}" not used: ${r.reason}`);
    }
    const heapMb = this.#heapFor(request);
    const pluginsRoot = dirname(dirs.pluginDir);
    const supervisor = new PluginSupervisor(request, {
      pool,
      permissions,
      heapMb,
      shareable: (o.layout ?? "shared") === "shared" && !permissions.privileged,
      shareKey: `${heapMb}|${pluginsRoot}`,
      sharedRead: [...paths.sourceReads, pluginsRoot],
      deny: deniedPaths(o.home),
      dirs,
      stuckGraceMs: o.stuckGraceMs ?? 250,
      heartbeatMs: o.heartbeatMs ?? Math.max(request.timeoutMs, 5000),
      crashPolicy: o.crashPolicy ?? {},
      maxMessageChars: o.maxMessageChars ?? DEFAULT_MAX_MESSAGE_CHARS,
    });
    this.#supervisors.add(supervisor);
    try {
      const ready = await supervisor.start();
      const tools = ready.tools.map((d, i) => {
        const definition = checkDefinition(d, `tools[${i}]`);
        return { definition, invoke: supervisor.invoker(definition.name) };
      });
      return {
        tools,
        hooks: new Set(ready.hooks),
        callHook: (hook, signal) => supervisor.hook(hook, signal),
        configChanged: ready.handlers.configChange
          ? (key, value, signal) => supervisor.configChanged(key, value, signal)
          : undefined,
        deliverEvent: ready.handlers.event
          ? (type, payload) => supervisor.deliverEvent(type, payload)
          : undefined,
        preMiddleware: ready.handlers.pre
          ? (toolName, args, signal, call) => supervisor.call({ op: "pre", toolName, args, call }, signal)
          : undefined,
        postMiddleware: ready.handlers.post
          ? (toolName, result, signal, call) =>
            supervisor.call({ op: "post", toolName, result, call }, signal)
          : undefined,
        unload: async () => {
          this.#supervisors.delete(supervisor);
          await supervisor.stop();
        },
      };
    } catch (error) {
      this.#supervisors.delete(supervisor);
      await supervisor.stop();
      throw error;
    }
  }

  /** The running sandbox processes and the plugins in each. */
  processes(): SandboxProcessInfo[] {
    return this.#pool?.list() ?? [];
  }

  /** Stops every plugin and process this loader started; resolves when all have exited. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#supervisors].map((s) => s.stop()));
    this.#supervisors.clear();
    await this.#pool?.close();
  }

  #setup(): { pool: SandboxPool; paths: SandboxPaths } {
    if (this.#pool && this.#paths) return { pool: this.#pool, paths: this.#paths };
    const o = this.#options;
    const paths = sandboxPaths();
    let denoPath = o.denoPath;
    if (!denoPath) {
      try {
        denoPath = Deno.execPath();
      } catch (error) {
        throw new CortexError(
          "sandbox_unavailable",
          `cannot find the deno executable: ${(error as Error).message}`,
        );
      }
    }
    const rssBaseMb = o.rssBaseMb ?? 192;
    this.#paths = paths;
    this.#pool = new SandboxPool({
      denoPath,
      configPath: paths.configPath,
      mainPath: paths.mainPath,
      env: sandboxEnv(),
      socketDir: o.socketDir,
      startTimeoutMs: 10_000,
      rssLimit: rssBaseMb > 0 ? { baseMb: rssBaseMb, perCellMb: o.heapMb ?? 128 } : undefined,
      watchdogMs: o.memoryCheckMs ?? 250,
      onDiagnostic: o.onDiagnostic ?? (() => {}),
    }, o.maxPluginsPerProcess ?? 16);
    return { pool: this.#pool, paths };
  }

  #heapFor(request: LoadRequest): number {
    const o = this.#options;
    const cap = request.row.trust_level === "signed"
      ? o.maxHeapMb?.signed ?? 1024
      : o.maxHeapMb?.untrusted ?? 256;
    return Math.min(request.manifest.limits?.maxMemoryMb ?? o.heapMb ?? 128, cap);
  }

  async #checkSignature(request: LoadRequest): Promise<void> {
    const verify = this.#options.verifySignature;
    if (request.row.trust_level !== "signed" || !verify) return;
    const verdict = await verify({
      manifest: request.manifest,
      sourceDir: request.services.pluginDir,
      entryFile: request.entryFile,
      integrityHash: request.row.integrity_hash,
      treeHash: request.row.tree_hash,
      trust: "signed",
      runsIn: "in a permission-restricted sandbox Worker",
    });
    if (!verdict.ok) {
      throw new CortexError(
        "signature_invalid",
        `plugin ${request.row.name} is signed, but ${verdict.reason}`,
      );
    }
  }
}
