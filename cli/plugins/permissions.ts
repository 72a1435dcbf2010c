import type { PermissionOverride, TrustLevel } from "../../runtime/store/mod.ts";
import type { CortexError } from "../../runtime/errors.ts";
import { expectPositionals } from "../args.ts";
import { defineCommand, print } from "../command.ts";
import { withRuntime } from "../open_runtime.ts";
import { EXIT, usage } from "../output.ts";

/** Parses `cap=grant`, `cap=deny` or `cap=grant:scope1,scope2`. */
export function parseOverride(text: string): PermissionOverride {
  const match = /^([a-z:]+)=(grant|deny)(?::(.+))?$/.exec(text);
  if (!match) {
    throw usage(`--set takes <capability>=grant|deny or <capability>=grant:<scope,...>, not "${text}"`);
  }
  const [, capability, decision, scope] = match;
  if (decision === "deny" && scope) throw usage(`a deny takes no scope ("${text}")`);
  return {
    capability,
    decision: decision as "grant" | "deny",
    scope: scope ? scope.split(",").map((s) => s.trim()).filter((s) => s !== "") : [],
  };
}

/** `cortex plugins permissions <name> [--set cap=grant|deny ...] [--trust level] [--timeout ms]` */
export const permissionsCommand = defineCommand({
  usage:
    "cortex plugins permissions <name> [--set <capability>=grant|deny[:scope,...] ...] [--trust untrusted|signed|trusted] [--timeout <ms>] [--json]",
  flags: { set: { type: "string", multiple: true }, trust: { type: "string" }, timeout: { type: "string" } },
  async run(input) {
    const [name] = expectPositionals(input.args, ["name"]);
    const overrides = ((input.args.flags.set as string[] | undefined) ?? []).map(parseOverride);
    const trust = input.args.flags.trust as TrustLevel | undefined;
    if (trust !== undefined && !["untrusted", "signed", "trusted"].includes(trust)) {
      throw usage(`--trust must be untrusted, signed or trusted, not "${trust}"`);
    }
    const timeoutText = input.args.flags.timeout as string | undefined;
    let timeoutMs: number | null | undefined;
    if (timeoutText !== undefined) {
      timeoutMs = timeoutText === "default" ? null : Number(timeoutText);
      if (timeoutMs !== null && (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000)) {
        throw usage(`--timeout takes milliseconds from 1 to 600000, or "default"`);
      }
    }
    return await withRuntime(async (runtime) => {
      let loadError: CortexError | undefined;
      if (overrides.length || trust || timeoutMs !== undefined) {
        ({ loadError } = await runtime.setPermissions(name, { overrides, trust, timeoutMs }));
        if (loadError) {
          input.io.err(`note: ${name} did not load with these permissions: ${loadError.message}`);
        }
      }
      const row = runtime.plugin(name);
      const permissions = runtime.permissions(name);
      print(
        input,
        {
          name,
          trust: row.trust_level,
          timeoutMs: row.timeout_ms,
          ...permissions,
          loadError: loadError?.toJSON() ?? null,
        },
        () =>
          [
            `trust      ${row.trust_level}`,
            `declared   ${permissions.declared.join(", ") || "(none)"}`,
            `effective  ${permissions.effective.join(", ") || "(none)"}`,
            ...permissions.overrides.map((o) =>
              `override   ${o.capability}=${o.decision}${o.scope.length ? `:${o.scope.join(",")}` : ""}`
            ),
          ].join("\n"),
      );
      return EXIT.ok;
    });
  },
});
