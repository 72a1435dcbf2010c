import { pluginView } from "./plugins/view.ts";
import { expectPositionals } from "./args.ts";
import { defineCommand, print } from "./command.ts";
import { daemonRequest, findDaemon } from "./daemon_client.ts";
import { withRuntime } from "./open_runtime.ts";
import { EXIT, table, usage } from "./output.ts";

interface ModuleLine {
  name: string;
  moduleId: string | null;
  moduleKind: string | null;
  status: string;
  state: string;
  pid: number | null;
  restarts: number;
}

/**
 * `cortex modules list`: each CortexFS module plugin with its module id,
 * kind, state, pid and restarts. Process details come from the running
 * daemon, which owns the processes; without one, modules are not running.
 */
export const modulesCommand = defineCommand({
  usage: "cortex modules list [--json]",
  async run(input) {
    const [verb] = expectPositionals(input.args, ["verb"]);
    if (verb !== "list") throw usage(`unknown verb 'modules ${verb}'`);
    let lines: ModuleLine[];
    const daemon = await findDaemon();
    if (daemon) {
      const { plugins } = await daemonRequest(daemon, "/api/plugins") as {
        plugins: { name: string; kind: string; status: string; boundary: Record<string, unknown> | null }[];
      };
      lines = plugins.filter((p) => p.kind === "module").map((p) => ({
        name: p.name,
        moduleId: (p.boundary?.moduleId as string) ?? null,
        moduleKind: (p.boundary?.moduleKind as string) ?? null,
        status: p.status,
        state: (p.boundary?.state as string) ?? "not running",
        pid: (p.boundary?.pid as number) ?? null,
        restarts: (p.boundary?.restarts as number) ?? 0,
      }));
    } else {
      lines = await withRuntime((runtime) =>
        runtime.plugins().filter((r) => r.type === "module").map((r) => ({
          name: pluginView(r).name as string,
          moduleId: null,
          moduleKind: null,
          status: r.status,
          state: "not running (no daemon)",
          pid: null,
          restarts: 0,
        }))
      );
    }
    print(input, { modules: lines }, () =>
      lines.length === 0 ? "no modules installed" : table(
        ["PLUGIN", "MODULE ID", "KIND", "STATUS", "STATE", "PID", "RESTARTS"],
        lines.map((l) => [
          l.name,
          l.moduleId ?? "-",
          l.moduleKind ?? "-",
          l.status,
          l.state,
          l.pid === null ? "-" : String(l.pid),
          String(l.restarts),
        ]),
      ));
    return EXIT.ok;
  },
});
