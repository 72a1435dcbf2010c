/**
 * The entry module of every plugin Worker. It connects to its own socket on
 * the host (the path comes in the init message from the sandbox's main
 * thread), locks the Worker down, imports the plugin's entry file, tells the
 * host what the plugin exports, and runs what the host asks: tools (with the
 * merged context), hooks, `onConfigChange`, `onEvent`, middleware. It
 * answers pings so the host can tell a slow plugin from one stuck in a loop.
 * When the host closes the socket, the Worker ends.
 *
 * The plugin shares this Worker: anything here can be read or forged by it.
 * That is fine: the host trusts nothing a Worker sends, and this Worker's
 * permissions are the plugin's own.
 *
 * @module
 */
import { globalEventBus } from "../../plugin_api/global_event_bus.ts";
import type {
  MiddlewareCallInfo,
  PluginContext,
  PluginModule,
  Tool,
  ToolExecutionContext,
} from "../../plugin_api/types.ts";
import { type ByteReader, LineWriter, readLines } from "./_lines.ts";
import { HOOK_NAMES } from "./_protocol.ts";
import { bridgeBus, type BusBridge } from "./worker_bus.ts";
import {
  type CellIdentity,
  checkTool,
  createWorkerContext,
  createWorkerLogger,
  plainDefinition,
  WorkerRpc,
} from "./worker_context.ts";
import { describeError, lockDown } from "./worker_lockdown.ts";

interface InitMessage extends CellIdentity {
  t: "init";
  socket: string;
  token: string;
  entry: string;
  capabilities: string[];
}

interface CallMessage {
  t: "call";
  id: number;
  op: "invoke" | "hook" | "config" | "pre" | "post";
  tool?: string;
  name?: string;
  key?: string;
  value?: unknown;
  toolName?: string;
  args?: Record<string, unknown>;
  result?: unknown;
  ctx?: Record<string, string>;
  call?: MiddlewareCallInfo;
}

type HostMessage =
  | CallMessage
  | { t: "cancel"; id: number }
  | { t: "ping"; id: number }
  | { t: "event"; type: string; payload: unknown }
  | { t: "bus"; type: string; payload: unknown }
  | { t: "res"; id: number; ok: boolean; value?: unknown; error?: string };

const scope = globalThis as unknown as {
  addEventListener(
    type: "message",
    listener: (event: MessageEvent) => void,
    options?: { once: boolean },
  ): void;
  close(): void;
};
const closeWorker = scope.close.bind(scope);
let out: LineWriter | undefined;
/** Every message to the host is one line of JSON on this Worker's own socket. */
const post = (message: Record<string, unknown>) => out?.write(JSON.stringify(message));
const rpc = new WorkerRpc(post);
const logger = createWorkerLogger(post);
const tools = new Map<string, Tool>();
const cancels = new Map<number, AbortController>();
let plugin: PluginModule | undefined;
let ctx: PluginContext | undefined;
let bus: BusBridge | undefined;

function reply(id: number, value: unknown): void {
  try {
    post({ t: "reply", id, ok: true, value: value === undefined ? null : value });
  } catch (error) {
    post({
      t: "reply",
      id,
      ok: false,
      error: `the answer cannot be sent across the sandbox boundary: ${describeError(error)}`,
    });
  }
}

function fail(id: number, error: unknown): void {
  post({ t: "reply", id, ok: false, error: describeError(error).slice(0, 4096) });
}

async function init(message: InitMessage): Promise<void> {
  const conn = await Deno.connect({ transport: "unix", path: message.socket });
  out = new LineWriter(conn);
  post({ t: "hello", token: message.token });
  readLines(conn as ByteReader, onHostLine, { maxChars: Number.MAX_SAFE_INTEGER, onOversized: () => {} })
    // The host closed this cell's socket: the cell is over.
    .finally(() => closeWorker());
  lockDown({
    log: (level, text) => logger.write(level, text),
    exiting: async (code) => {
      post({ t: "exit", code });
      await out?.drained();
    },
  });
  bus = bridgeBus(globalEventBus, {
    allowed: message.capabilities.includes("events:listener"),
    subscribe: (type) => post({ t: "subscribe", type }),
  });
  ctx = createWorkerContext(message, rpc, {
    logger,
    host: {
      registerTool: (tool: Tool) => {
        const checked = checkTool(tool, "the registered tool");
        const definition = plainDefinition(checked);
        tools.set(checked.definition.name, checked);
        post({ t: "register", definition });
      },
      unregisterTool: (name: string) => {
        tools.delete(String(name));
        post({ t: "unregister", name: String(name) });
      },
    },
  });
  try {
    plugin = await import(message.entry) as PluginModule;
  } catch (error) {
    post({
      t: "load-failed",
      code: "hook_failed",
      message: `importing ${message.pluginId} failed: ${describeError(error)}`,
    });
    return;
  }
  const exported = plugin.tools ?? [];
  const definitions: Record<string, unknown>[] = [];
  try {
    if (!Array.isArray(exported)) {
      throw new TypeError(`plugin ${message.pluginId} exports "tools" that is not an array`);
    }
    for (const [i, tool] of exported.entries()) {
      const checked = checkTool(tool, `tools[${i}]`);
      definitions.push(plainDefinition(checked));
      tools.set(checked.definition.name, checked);
    }
  } catch (error) {
    post({ t: "load-failed", code: "tool_undeclared", message: describeError(error) });
    return;
  }
  const has = (name: keyof PluginModule) => typeof plugin?.[name] === "function";
  post({
    t: "ready",
    tools: definitions,
    hooks: HOOK_NAMES.filter((h) => has(h)),
    handlers: {
      configChange: has("onConfigChange"),
      event: has("onEvent"),
      pre: has("preMiddleware"),
      post: has("postMiddleware"),
    },
  });
}

async function run(message: CallMessage): Promise<unknown> {
  const mod = plugin;
  const context = ctx;
  if (!mod || !context) throw new Error("the plugin is not loaded");
  switch (message.op) {
    case "invoke": {
      const tool = tools.get(String(message.tool));
      if (!tool) throw new Error(`plugin ${context.pluginId} has no tool named "${message.tool}"`);
      const controller = new AbortController();
      cancels.set(message.id, controller);
      const call = message.ctx ?? {};
      const merged: ToolExecutionContext = {
        sessionId: call.sessionId ?? "",
        workingDir: call.workingDir ?? "",
        agentId: call.agentId ?? "",
        workspaceDir: call.workspaceDir ?? "",
        caller: call.caller ?? "",
        signal: controller.signal,
        pluginId: context.pluginId,
        pluginDir: context.pluginDir,
        dataDir: context.dataDir,
        state: context.state,
        config: context.config,
        logger: context.logger,
        host: context.host,
      };
      try {
        return await tool.execute(message.args ?? {}, merged);
      } finally {
        cancels.delete(message.id);
      }
    }
    case "hook": {
      const hook = mod[message.name as (typeof HOOK_NAMES)[number]];
      if (typeof hook === "function") await hook(context);
      return null;
    }
    case "config":
      await mod.onConfigChange?.(String(message.key), message.value, context);
      return null;
    case "pre":
      if (!mod.preMiddleware) throw new Error("the plugin has no preMiddleware");
      return await mod.preMiddleware(
        String(message.toolName),
        message.args ?? {},
        context,
        callInfo(message),
      );
    case "post":
      if (!mod.postMiddleware) throw new Error("the plugin has no postMiddleware");
      return await mod.postMiddleware(
        String(message.toolName),
        message.result as never,
        context,
        callInfo(message),
      );
  }
}

function callInfo(message: CallMessage): MiddlewareCallInfo {
  return message.call ?? { qualifiedName: String(message.toolName), plugin: "", caller: "" };
}

function onEvent(type: string, payload: unknown): void {
  const mod = plugin;
  if (!mod?.onEvent || !ctx) return;
  Promise.resolve()
    .then(() => mod.onEvent!(type, payload, ctx!))
    .catch((error) => logger.error(`onEvent(${type}) failed: ${describeError(error)}`));
}

function onHostLine(line: string): void {
  let message: HostMessage;
  try {
    message = JSON.parse(line) as HostMessage;
  } catch {
    return;
  }
  switch (message.t) {
    case "call":
      run(message).then((value) => reply(message.id, value), (error) => fail(message.id, error));
      break;
    case "cancel":
      cancels.get(message.id)?.abort(new DOMException("the call was cancelled", "AbortError"));
      break;
    case "ping":
      post({ t: "pong", id: message.id });
      break;
    case "event":
      onEvent(message.type, message.payload);
      break;
    case "bus":
      bus?.deliver(message.type, message.payload);
      break;
    case "res":
      rpc.settle(message);
      break;
  }
}

scope.addEventListener("message", (event: MessageEvent) => {
  const message = event.data as InitMessage;
  if (message?.t === "init") void init(message);
}, { once: true });
