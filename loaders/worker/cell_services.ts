/**
 * The host side of a sandboxed plugin's services: its state, config,
 * logger, run-time tools and event subscriptions, served to its Worker's
 * requests. Every value is checked here; the services themselves belong to
 * the one plugin the cell was started for, so a request can never reach
 * another plugin's state, config or tools.
 *
 * @module
 */
import type { ToolDefinition } from "../../plugin_api/types.ts";
import { CortexError, toCortexError } from "../../runtime/errors.ts";
import type { PluginServices, ToolInvoker } from "../../runtime/loader.ts";
import { pluginToolSchema } from "../../runtime/plugin_context.ts";
import { formatIssues } from "../../manifest/format_issues.ts";
import type { LOG_LEVELS, REQUEST_OPS } from "./_protocol.ts";
import type { CellNotice } from "./cell_events.ts";

const definitionSchema = pluginToolSchema.shape.definition;

/**
 * Checks a tool definition that came from a Worker.
 *
 * @throws {CortexError} `tool_undeclared`, naming what is wrong.
 */
export function checkDefinition(value: unknown, where: string): ToolDefinition {
  const parsed = definitionSchema.safeParse(value);
  if (!parsed.success) {
    throw new CortexError(
      "tool_undeclared",
      `${where} is not a valid tool: ${formatIssues(parsed.error.issues).join("; ")}`,
    );
  }
  return parsed.data as unknown as ToolDefinition;
}

/** How the services reach back into the cell. */
export interface CellServicesParts {
  /** Calls a tool in the cell. */
  invoke(name: string): ToolInvoker;
  /** Forwards an event to the cell's `globalEventBus`. */
  forward(type: string, payload: unknown): void;
}

/** One sandboxed plugin's host services. */
export class CellServices {
  #services: PluginServices;
  #parts: CellServicesParts;
  #dynamic = new Set<string>();
  #subscriptions = new Map<string, () => void>();

  /**
   * @param services The plugin's services from the runtime.
   * @param parts How to reach the cell.
   */
  constructor(services: PluginServices, parts: CellServicesParts) {
    this.#services = services;
    this.#parts = parts;
  }

  /** Serves one request from the cell. */
  async request(op: (typeof REQUEST_OPS)[number], key: string | undefined, value: unknown): Promise<unknown> {
    const { state, config } = this.#services;
    const needKey = () => {
      if (key === undefined) throw new CortexError("bad_request", `${op} needs a key`);
      return key;
    };
    switch (op) {
      case "state.get":
        return await state.get(needKey());
      case "state.set":
        if (typeof value !== "string") throw new CortexError("bad_request", "state values are strings");
        return await state.set(needKey(), value);
      case "state.delete":
        return await state.delete(needKey());
      case "state.list":
        return await state.list();
      case "config.get":
        return await config.get(key);
      case "config.set":
        if (value === undefined) {
          throw new CortexError("config_invalid", `the value for "${key}" must be JSON`);
        }
        return await config.set(needKey(), value);
      case "config.getAll":
        return await config.getAll();
    }
  }

  /** Acts on a message that needs no answer. */
  notice(message: CellNotice): void {
    switch (message.t) {
      case "log":
        return this.log(message.level, message.msg);
      case "register":
        return this.register(message.definition);
      case "unregister":
        return this.unregister(message.name);
      case "subscribe":
        return this.subscribe(message.type);
    }
  }

  /** Writes one log line for the plugin. */
  log(level: (typeof LOG_LEVELS)[number], msg: string): void {
    this.#services.logger[level](msg);
  }

  /** Notes something the sandbox dropped or refused, in the plugin's log. */
  warn(text: string): void {
    this.#services.logger.warn(`[sandbox] ${text}`);
  }

  /** Registers a tool the plugin registered with `host.registerTool`. */
  register(value: unknown): void {
    let definition: ToolDefinition;
    try {
      definition = checkDefinition(value, "the registered tool");
    } catch (error) {
      this.#services.logger.error(`[sandbox] registerTool refused: ${toCortexError(error).message}`);
      return;
    }
    // A restarted Worker registers its tools again; the registry still has them.
    if (this.#dynamic.has(definition.name)) return;
    try {
      this.#services.registerTool({ definition, invoke: this.#parts.invoke(definition.name) });
      this.#dynamic.add(definition.name);
    } catch (error) {
      this.#services.logger.error(`[sandbox] registerTool refused: ${toCortexError(error).message}`);
    }
  }

  /** Unregisters one of the plugin's tools. */
  unregister(name: string): void {
    this.#dynamic.delete(name);
    this.#services.unregisterTool(name);
  }

  /** Subscribes the plugin to `type` (refused without `events:listener`). */
  subscribe(type: string): void {
    if (this.#subscriptions.has(type)) return;
    try {
      const off = this.#services.subscribe(type, (payload) => this.#parts.forward(type, payload));
      this.#subscriptions.set(type, off);
    } catch (error) {
      this.#services.logger.warn(
        `[sandbox] subscription to "${type}" refused: ${toCortexError(error).message}`,
      );
    }
  }

  /** Ends every subscription (the cell is gone; a restarted one subscribes again). */
  dropSubscriptions(): void {
    for (const off of this.#subscriptions.values()) off();
    this.#subscriptions.clear();
  }
}
