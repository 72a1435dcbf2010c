import { CORTEX_ERR, CORTEX_ERR_DENIED, CORTEX_OK } from "./abi.ts";
import { pluginFetch, type PluginHttpPolicy } from "./http_fetch.ts";
import type { HostRequest } from "./messages.ts";
import type { WasmPluginServices } from "./types.ts";

/** The answer to a synchronous host request, as the channel carries it. */
export interface HostReply {
  /** ABI return code. */
  code: number;
  /** Value, body or short reason. */
  payload?: Uint8Array;
  /** HTTP status, for HTTP requests. */
  status?: number;
}

const encoder = new TextEncoder();

/**
 * Serves one synchronous host request from a plugin's Worker on the main
 * thread: state and config through the services, HTTP through
 * {@link pluginFetch}. Never throws: a failing service becomes CORTEX_ERR and
 * a warning in the plugin's log.
 */
export async function serveHostRequest(
  request: HostRequest,
  services: WasmPluginServices,
  http: PluginHttpPolicy,
): Promise<HostReply> {
  try {
    switch (request.op) {
      case "get_state": {
        const value = await services.getState(request.key);
        return value === null || value === undefined
          ? { code: CORTEX_ERR }
          : { code: CORTEX_OK, payload: encoder.encode(value) };
      }
      case "set_state":
        await services.setState(request.key, request.value);
        return { code: CORTEX_OK };
      case "get_config": {
        const value = await services.getConfig(request.key);
        if (value === null || value === undefined) return { code: CORTEX_ERR };
        const text = typeof value === "string" ? value : JSON.stringify(value);
        return { code: CORTEX_OK, payload: encoder.encode(text) };
      }
      case "http": {
        const outcome = await pluginFetch(request, http);
        if (outcome.kind === "response") {
          return { code: CORTEX_OK, status: outcome.status, payload: outcome.body };
        }
        const code = outcome.kind === "denied" ? CORTEX_ERR_DENIED : CORTEX_ERR;
        return { code, payload: encoder.encode(`host: ${outcome.reason}`) };
      }
    }
  } catch (error) {
    services.log(
      "warn",
      `host ${request.op} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return { code: CORTEX_ERR };
  }
}
