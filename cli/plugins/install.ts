import { describeRunsIn } from "../../runtime/installer.ts";
import type { TrustLevel } from "../../runtime/store/mod.ts";
import { expectPositionals } from "../args.ts";
import { defineCommand, print } from "../command.ts";
import { withRuntime } from "../open_runtime.ts";
import { EXIT, usage } from "../output.ts";
import { pluginView } from "./view.ts";
import { findDaemon } from "../daemon_client.ts";
import { settledLoaded, waitForDaemon } from "../daemon_follow.ts";
import { CortexError } from "../../runtime/errors.ts";

const TRUST_LEVELS: readonly TrustLevel[] = ["untrusted", "signed", "trusted"];

/** `cortex plugins install <folder> [--trust ...] [--yes] [--json]` */
export const installCommand = defineCommand({
  usage: "cortex plugins install <folder> [--trust untrusted|signed|trusted] [--yes] [--json]",
  flags: { trust: { type: "string" }, yes: { type: "boolean", short: "y" } },
  async run(input) {
    const [folder] = expectPositionals(input.args, ["folder"]);
    const trust = (input.args.flags.trust ?? "untrusted") as TrustLevel;
    if (!TRUST_LEVELS.includes(trust)) {
      throw usage(`--trust must be one of ${TRUST_LEVELS.join(", ")}, not "${trust}"`);
    }
    return await withRuntime(async (runtime) => {
      const plan = await runtime.planInstall(folder, { trust });
      const m = plan.manifest;
      const summary = {
        name: m.name,
        version: m.version,
        kind: m.kind,
        capabilities: m.capabilities,
        tools: (m.tools ?? []).map((t) => t.name),
        events: m.events ?? [],
        trust,
        runsIn: describeRunsIn(m.kind, trust),
        integrityHash: plan.integrityHash,
      };
      if (!input.args.flags.yes) {
        if (!input.json) {
          input.io.err(
            [
              `${m.name} ${m.version} (${m.kind}): ${m.description}`,
              `  capabilities: ${m.capabilities.join(", ") || "(none)"}`,
              `  tools:        ${summary.tools.join(", ") || "(none declared)"}`,
              `  trust:        ${trust}`,
              `  runs:         ${summary.runsIn}`,
            ].join("\n"),
          );
        }
        if (!input.io.confirm(`Install ${m.name}?`)) {
          throw usage("install not confirmed; answer yes at the prompt, or pass --yes");
        }
      }
      // With a daemon running, it owns the running plugins: record the install and let it load.
      const daemon = await findDaemon();
      const result = await runtime.install(plan, { load: !daemon });
      if (daemon) {
        const row = await waitForDaemon(runtime, m.name, settledLoaded);
        if (row) result.row = row;
        if (row?.status === "error") {
          result.loadError = new CortexError("plugin_not_active", row.error_message ?? "it did not load");
        }
      }
      const view = pluginView(result.row);
      print(input, { installed: view, plan: summary, loadError: result.loadError?.toJSON() ?? null }, () => {
        const lines = [`installed ${m.name} ${m.version} (${trust}), status ${result.row.status}`];
        if (result.loadError) lines.push(`note: it did not load: ${result.loadError.message}`);
        return lines.join("\n");
      });
      return EXIT.ok;
    });
  },
});
