/**
 * Answers a module's call into the runtime: runs the `onCall` handler and
 * turns what it returned or threw into the frame that answers the module,
 * without leaking anything a plain Error might hold.
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";
import { isValidName } from "../name.ts";
import type { ErrorFrame, ModuleFrame } from "../wire/frame.ts";
import type { ModuleHandlers } from "./types.ts";

const MAX_MESSAGE = 1024;

/**
 * The error frame answering `requestId` for `error`: a `CortexError` keeps its
 * code (when it follows the name rule) and its message (cut to 1 KiB, NUL
 * removed); anything else becomes `call_failed` with a generic message.
 *
 * @example
 * ```ts
 * import { CortexError } from "../../runtime/errors.ts";
 * import { errorFrameFor } from "./answer_call.ts";
 * errorFrameFor("c1", new CortexError("tool_not_found", "no tool named x"));
 * // { type: "error", request_id: "c1", code: "tool_not_found", message: "no tool named x" }
 * ```
 */
export function errorFrameFor(
  requestId: string | undefined,
  error: unknown,
): ErrorFrame {
  const base = requestId === undefined ? {} : { request_id: requestId };
  if (error instanceof CortexError && isValidName(error.code)) {
    const message = error.message.replaceAll("\0", "").slice(0, MAX_MESSAGE)
      .toWellFormed();
    return {
      type: "error",
      ...base,
      code: error.code,
      message: message || error.code,
    };
  }
  return {
    type: "error",
    ...base,
    code: "call_failed",
    message: "the handler failed",
  };
}

/**
 * Runs `onCall` for one module call and resolves with the answering frame:
 * a `result`, or an error frame (`unknown_method` without a handler).
 *
 * @example
 * ```ts
 * import { answerCall } from "./answer_call.ts";
 * await answerCall((method) => method.toUpperCase(), { request_id: "m1", method: "ping", payload: null });
 * // { type: "result", request_id: "m1", payload: "PING" }
 * ```
 */
export async function answerCall(
  onCall: ModuleHandlers["onCall"],
  call: { request_id: string; method: string; payload: unknown },
): Promise<ModuleFrame> {
  if (!onCall) {
    const missing = new CortexError("unknown_method", `no method ${call.method}`);
    return errorFrameFor(call.request_id, missing);
  }
  try {
    const result = await onCall(call.method, call.payload);
    return { type: "result", request_id: call.request_id, payload: result ?? null };
  } catch (error) {
    return errorFrameFor(call.request_id, error);
  }
}
