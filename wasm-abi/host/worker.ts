/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * The Worker that runs one WASM plugin. It is started with no Deno
 * permissions; it gets the module bytes by message and reaches the outside
 * only through the host imports, which ask the main thread.
 *
 * @module
 */

import { CortexError } from "../../runtime/errors.ts";
import { CORTEX_OK } from "./abi.ts";
import type { ImportContext } from "./host_imports.ts";
import type { MainMessage } from "./messages.ts";
import { type OutputCall, PluginInstance, UnwoundError } from "./plugin_instance.ts";

type Context = Omit<ImportContext, "memory" | "heap">;

let module: WebAssembly.Module | undefined;
let context: Context | undefined;
let instance: PluginInstance | undefined;

const post = (message: unknown) => self.postMessage(message);

function describe(error: unknown): { code: string; message: string } {
  if (error instanceof CortexError) return { code: error.code, message: error.message };
  return { code: "internal", message: error instanceof Error ? error.message : String(error) };
}

function init(message: Extract<MainMessage, { type: "init" }>): void {
  try {
    module = new WebAssembly.Module(message.wasm as Uint8Array<ArrayBuffer>);
    context = { channel: message.channel, limits: message.limits, post };
    instance = PluginInstance.create(module, context);
    let caps: OutputCall;
    try {
      caps = instance.capabilities();
    } catch (error) {
      throw new CortexError("bad_capabilities", `plugin_get_capabilities failed: ${describe(error).message}`);
    }
    if (caps.code !== CORTEX_OK) {
      throw new CortexError("bad_capabilities", `plugin_get_capabilities returned ${caps.code}`);
    }
    post({ type: "ready", capabilities: caps.text });
  } catch (error) {
    post({ type: "init_error", ...describe(error) });
  }
}

function call(id: number, name: string, args: string): void {
  try {
    instance ??= PluginInstance.create(module!, context!);
  } catch (error) {
    const { code, message } = describe(error);
    post({ type: "result", id, ok: false, output: "", code, error: message, broken: true });
    return;
  }
  try {
    const { code, text } = instance.execute(name, args);
    if (code === CORTEX_OK) post({ type: "result", id, ok: true, output: text });
    else {
      const error = text || `the tool returned code ${code}`;
      post({ type: "result", id, ok: false, output: "", code: "tool_failed", error });
    }
  } catch (error) {
    const { code, message } = describe(error);
    let note = "";
    if (error instanceof UnwoundError) {
      // The interrupted instance may hold half-updated state: start clean.
      instance = undefined;
      try {
        instance = PluginInstance.create(module!, context!);
        note = " (the plugin was restarted)";
      } catch (restart) {
        note = ` (restarting the plugin failed: ${describe(restart).message})`;
      }
    }
    post({
      type: "result",
      id,
      ok: false,
      output: "",
      code,
      error: message + note,
      broken: instance === undefined,
    });
  }
}

self.onmessage = (event: MessageEvent<MainMessage>) => {
  const message = event.data;
  if (message.type === "init") init(message);
  else if (message.type === "call") call(message.id, message.name, message.args);
  else if (message.type === "close") {
    try {
      instance?.destroy();
    } catch {
      // The plugin is going away either way; a failing destroy changes nothing.
    }
    post({ type: "closed" });
  }
};
