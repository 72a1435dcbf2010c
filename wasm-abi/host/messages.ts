/**
 * Messages between the main thread and a plugin's Worker. What the Worker
 * sends is untrusted (it runs plugin code), so the main thread parses every
 * message with {@link parseWorkerMessage} before acting on it.
 *
 * @module
 */

import { z } from "zod";

/** Limits the Worker applies inside host imports. */
export interface WorkerLimits {
  /** Initial output capacity for `plugin_execute_tool` and `plugin_get_capabilities`. */
  initialOutputBytes: number;
  /** Largest output a plugin may ask for on the retry. */
  maxOutputBytes: number;
  /** Largest tool-argument JSON. */
  maxArgsBytes: number;
  /** Largest state value, config value, HTTP body or header set moved through the channel. */
  maxTransferBytes: number;
  /** Longest log message kept. */
  maxLogBytes: number;
  /** Pages for an imported memory; absent when the module brings its own. */
  importedMemory?: { initial: number; maximum: number };
}

/** Main thread to Worker. */
export type MainMessage =
  | { type: "init"; wasm: Uint8Array; channel: SharedArrayBuffer; limits: WorkerLimits }
  | { type: "call"; id: number; name: string; args: string }
  | { type: "close" };

const ready = z.object({ type: z.literal("ready"), capabilities: z.string() });
const initError = z.object({ type: z.literal("init_error"), code: z.string(), message: z.string() });
const result = z.object({
  type: z.literal("result"),
  id: z.number(),
  ok: z.boolean(),
  output: z.string(),
  code: z.string().optional(),
  error: z.string().optional(),
  broken: z.boolean().optional(),
});
const log = z.object({ type: z.literal("log"), message: z.string() });
const key = z.string().max(1024);
const host = z.discriminatedUnion("op", [
  z.object({ type: z.literal("host"), op: z.literal("get_state"), key }),
  z.object({ type: z.literal("host"), op: z.literal("set_state"), key, value: z.string() }),
  z.object({ type: z.literal("host"), op: z.literal("get_config"), key }),
  z.object({
    type: z.literal("host"),
    op: z.literal("http"),
    method: z.string().max(16),
    url: z.string().max(8192),
    body: z.instanceof(Uint8Array).nullable(),
    headers: z.string().nullable(),
  }),
]);
const closed = z.object({ type: z.literal("closed") });

// The call result comes first: it is by far the most frequent message.
const workerMessage = z.union([result, host, log, ready, initError, closed]);

/** Worker to main thread. */
export type WorkerMessage = z.infer<typeof workerMessage>;

/** A synchronous host request from the Worker. */
export type HostRequest = z.infer<typeof host>;

/** Parses a message from the Worker; returns undefined for anything malformed. */
export function parseWorkerMessage(data: unknown): WorkerMessage | undefined {
  const parsed = workerMessage.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}
