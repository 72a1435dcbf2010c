/**
 * Inside a plugin's Worker: the PluginContext the plugin sees, with every
 * service a request to the host, which answers for this plugin only (the
 * host knows which cell asked; nothing here can name another plugin).
 *
 * @module
 */
import type { HostApi, PluginContext, PluginLogger, Tool } from "../../plugin_api/types.ts";
import { MAX_LOG_CHARS, type REQUEST_OPS } from "./_protocol.ts";

/** Sends one message to the host. */
export type Post = (message: Record<string, unknown>) => void;

/** What the host said about a plugin's folders, at init. */
export interface CellIdentity {
  /** The plugin's name. */
  pluginId: string;
  /** Its code folder. */
  pluginDir: string;
  /** Its data folder. */
  dataDir: string;
}

/** Requests to the host, matched with their answers by id. */
export class WorkerRpc {
  #post: Post;
  #next = 1;
  #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  /** @param post Sends a message to the host. */
  constructor(post: Post) {
    this.#post = post;
  }

  /** Asks the host for `op`; resolves with its answer. */
  request(op: (typeof REQUEST_OPS)[number], fields: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      try {
        this.#post({ t: "req", id, op, ...fields });
      } catch (error) {
        this.#pending.delete(id);
        reject(error);
      }
    });
  }

  /** Settles a request with the host's answer. */
  settle(message: { id: number; ok: boolean; value?: unknown; error?: string }): void {
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    if (message.ok) pending.resolve(message.value);
    else pending.reject(new Error(message.error ?? "the host refused the request"));
  }
}

/** Builds the plugin's logger: each line goes to the host's log for this plugin. */
export function createWorkerLogger(post: Post): PluginLogger & { write(level: string, msg: unknown): void } {
  const write = (level: string, msg: unknown) => {
    let text = typeof msg === "string" ? msg : String(msg);
    if (text.length > MAX_LOG_CHARS) text = text.slice(0, MAX_LOG_CHARS) + " [cut]";
    post({ t: "log", level, msg: text });
  };
  return {
    write,
    debug: (msg) => write("debug", msg),
    info: (msg) => write("info", msg),
    warn: (msg) => write("warn", msg),
    error: (msg) => write("error", msg),
  };
}

/** Builds the PluginContext over host requests. */
export function createWorkerContext(
  identity: CellIdentity,
  rpc: WorkerRpc,
  parts: { logger: PluginLogger; host: HostApi },
): PluginContext {
  return {
    pluginId: identity.pluginId,
    pluginDir: identity.pluginDir,
    dataDir: identity.dataDir,
    state: {
      get: (key) => rpc.request("state.get", { key: String(key) }) as Promise<string | null>,
      set: async (key, value) => {
        if (typeof value !== "string") {
          throw new TypeError("state values are strings; JSON.stringify other values");
        }
        await rpc.request("state.set", { key: String(key), value });
      },
      delete: async (key) => {
        await rpc.request("state.delete", { key: String(key) });
      },
      list: () => rpc.request("state.list") as Promise<Record<string, string>>,
    },
    config: {
      get: <T>(key?: string) =>
        rpc.request("config.get", key === undefined ? {} : { key: String(key) }) as Promise<T | null>,
      set: async (key, value) => {
        await rpc.request("config.set", { key: String(key), value });
      },
      getAll: () => rpc.request("config.getAll") as Promise<Record<string, unknown>>,
    },
    logger: parts.logger,
    host: parts.host,
  };
}

/** Checks a tool object from plugin code well enough to keep it; the host checks the rest. */
export function checkTool(tool: unknown, where: string): Tool {
  const t = tool as Partial<Tool> | null;
  if (typeof t !== "object" || t === null || typeof t.definition !== "object" || t.definition === null) {
    throw new TypeError(`${where} is not a valid tool: it needs a "definition" object`);
  }
  if (typeof t.definition.name !== "string") {
    throw new TypeError(`${where} is not a valid tool: definition.name must be a string`);
  }
  if (typeof t.execute !== "function") {
    throw new TypeError(`${where} is not a valid tool: execute must be a function`);
  }
  return t as Tool;
}

/** A plain-data copy of a tool's definition, safe to send (functions and cycles refused). */
export function plainDefinition(tool: Tool): Record<string, unknown> {
  return JSON.parse(JSON.stringify(tool.definition));
}
