/**
 * The CortexFS module loader: a `kind: "module"` plugin is an external
 * process speaking `cortexfs.module.socket/v1` over a runtime-owned Unix
 * socket. Each capability in its `ready` metadata becomes a tool of the
 * plugin with the capability's name; its events go on the bus as
 * `module:<plugin>:<event>`; its own calls reach the services in
 * `module_calls.ts`. `{sdk}` in the manifest's `command` is replaced with the
 * folder of the runtime's module SDKs (`module-abi/`, with `import_map.json`
 * for Deno modules), and Python modules find `cortexfs_module` on
 * `PYTHONPATH`. The process runs with the person's rights, so like a
 * native MCP server it runs only when the plugin is trusted or `shell:run`
 * is granted for its program.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ModuleSupervisor } from "../../module-abi/mod.ts";
import { CortexError } from "../../runtime/errors.ts";
import type { LoadedPlugin, LoadedTool, Loader, LoadRequest } from "../../runtime/loader.ts";
import { paramsToJsonSchema } from "../../runtime/tool_schema.ts";
import { answerModuleCall } from "./module_calls.ts";

/** The runtime's own module SDKs, offered to module processes through their environment. */
const SDK_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "module-abi");

/** Checks that the person allowed this program to run. */
function checkAllowed(request: LoadRequest, program: string): void {
  if (request.row.trust_level === "trusted") return;
  const grant = request.grants["shell:run"];
  const allowed = request.capabilities.includes("shell:run") && grant !== undefined &&
    (grant.length === 0 || grant.includes(basename(program)) || grant.includes(program));
  if (!allowed) {
    const name = request.row.name;
    throw new CortexError(
      "permission_denied",
      `module ${name} starts the program "${basename(program)}" with your rights; trust it ` +
        `('cortex plugins permissions ${name} --trust trusted') or declare "shell:run" and allow the program ` +
        `('cortex plugins permissions ${name} --set shell:run=grant:${basename(program)}')`,
    );
  }
}

/** Loads CortexFS external modules as supervised child processes. */
export class ModuleLoader implements Loader {
  /** The loader's name. */
  readonly name = "module";

  /** Starts the module (hello, ready, init, start) and exposes its capabilities as tools. */
  async load(request: LoadRequest): Promise<LoadedPlugin> {
    const { manifest, services } = request;
    const command = manifest.command;
    if (!command?.length) {
      throw new CortexError("manifest_invalid", `module ${manifest.name} has no "command"`);
    }
    checkAllowed(request, command[0]);
    let down = false;
    const supervisor = new ModuleSupervisor(
      {
        // "{sdk}" in a command is the folder of the runtime's module SDKs (module-abi/).
        command: command.map((arg) => arg.replaceAll("{sdk}", SDK_DIR)),
        cwd: services.pluginDir,
        socketDir: join(request.home.socketsDir, manifest.name),
        instance: "cortex",
        env: {
          PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
          PYTHONPATH: join(SDK_DIR, "python"),
        },
        deadlines: {
          readyMs: Math.min(request.timeoutMs, 10_000),
          lifecycleMs: Math.min(request.timeoutMs, 10_000),
          callMs: request.timeoutMs,
          graceMs: 3_000,
        },
      },
      {
        onEvent: (name, payload) => services.publishEvent(name, payload),
        onCall: (method, payload) => answerModuleCall(services, method, payload),
        onLog: (line, source) => services.logger[source === "stderr" ? "warn" : "info"](`${source}: ${line}`),
        onExit: (info) => {
          services.logger.warn(
            `process ended: ${info.reason}${info.error ? ` (${info.error.message})` : ""}`,
          );
          if (info.reason === "stopped") return;
          // The supervisor restarts on the next call; once it gives up, so does the plugin.
          queueMicrotask(() => {
            if (supervisor.state === "disabled") {
              request.onCrash(`module_disabled: ${manifest.name} failed repeatedly and was disabled`, {
                disable: true,
              });
            } else if (supervisor.state === "crashed") {
              down = true;
              request.onStatus("error", `module_exited: ${info.reason}; it restarts on the next call`);
            }
          });
        },
      },
    );
    try {
      await supervisor.start();
    } catch (error) {
      await supervisor.stop({ graceMs: 0 }).catch(() => {});
      throw error;
    }
    const metadata = supervisor.metadata!;
    const tools: LoadedTool[] = metadata.capabilities.map((capability) => {
      const declared = manifest.tools?.find((t) => t.name === capability.name);
      return {
        definition: {
          name: capability.name,
          description: declared?.description || capability.description,
          params: declared?.params ?? [],
          capabilities: [],
        },
        // Undeclared capabilities take any object; the module checks its own payload.
        inputSchema: declared ? paramsToJsonSchema(declared.params) : { type: "object" },
        invoke: async (args, ctx) => {
          const output = await supervisor.call(capability.name, args, { signal: ctx.signal });
          if (down) {
            down = false;
            request.onStatus("active");
          }
          return { success: true, output: typeof output === "string" ? output : JSON.stringify(output) };
        },
      };
    });
    return {
      tools,
      hooks: new Set(),
      callHook: () => Promise.resolve(),
      unload: async () => await supervisor.stop({ graceMs: 3_000 }),
      describe: () => ({
        moduleId: metadata.id,
        moduleKind: metadata.kind,
        moduleVersion: metadata.version,
        state: supervisor.state,
        pid: supervisor.pid ?? null,
        restarts: supervisor.restarts,
      }),
    };
  }
}
