import { CortexError } from "../../runtime/errors.ts";
import type { PluginServices } from "../../runtime/loader.ts";

/** The runtime services an external module may call, by method name. */
export const MODULE_HOST_METHODS: readonly string[] = [
  "state.get",
  "state.set",
  "state.delete",
  "state.list",
  "config.get",
  "log",
  "tools.call",
];

function field(payload: unknown, name: string, type: "string" | "object"): unknown {
  const value = (payload as Record<string, unknown> | null)?.[name];
  const ok = type === "object"
    ? typeof value === "object" && value !== null && !Array.isArray(value)
    : typeof value === "string";
  if (!ok) {
    throw new CortexError("bad_payload", `"${name}" must be a${type === "object" ? "n object" : " string"}`);
  }
  return value;
}

/**
 * Answers one `call` frame a module sends the runtime. A module reaches only
 * its own state and config section, its own log, and tools through the one
 * call path with the caller label `module:<name>` (so middleware and policy
 * apply); anything else is `unknown_method`.
 */
export async function answerModuleCall(
  services: PluginServices,
  method: string,
  payload: unknown,
): Promise<unknown> {
  switch (method) {
    case "state.get":
      return await services.state.get(field(payload, "key", "string") as string);
    case "state.set":
      await services.state.set(
        field(payload, "key", "string") as string,
        field(payload, "value", "string") as string,
      );
      return null;
    case "state.delete":
      await services.state.delete(field(payload, "key", "string") as string);
      return null;
    case "state.list":
      return await services.state.list();
    case "config.get": {
      const key = (payload as { key?: unknown } | null)?.key;
      if (key !== undefined && typeof key !== "string") {
        throw new CortexError("bad_payload", `"key" must be a string`);
      }
      return await services.config.get(key as string | undefined);
    }
    case "log": {
      const level = (payload as { level?: unknown } | null)?.level ?? "info";
      if (level !== "debug" && level !== "info" && level !== "warn" && level !== "error") {
        throw new CortexError("bad_payload", `"level" must be debug, info, warn or error`);
      }
      services.logger[level](String(field(payload, "message", "string")));
      return null;
    }
    case "tools.call": {
      const result = await services.callTool(
        field(payload, "name", "string") as string,
        ((payload as { args?: Record<string, unknown> }).args ?? {}) as Record<string, unknown>,
      );
      return result;
    }
    default:
      throw new CortexError(
        "unknown_method",
        `the runtime offers modules ${MODULE_HOST_METHODS.join(", ")}; not "${method.slice(0, 64)}"`,
      );
  }
}
