/**
 * The seven frames of the `cortexfs.module.socket/v1` wire ABI, as TypeScript
 * types whose field names are the wire's own (`request_id`, not `requestId`),
 * so a frame object is exactly what travels.
 *
 * @module
 */
import type { ModuleOperation } from "../lifecycle.ts";
import type { ModuleMetadata } from "../metadata.ts";

/** The wire ABI identifier every `hello` frame carries. */
export const WIRE_ABI = "cortexfs.module.socket/v1";

/** The largest frame, in bytes, counting its trailing newline (1 MiB). */
export const MAX_FRAME_BYTES = 1_048_576;

/**
 * The deepest JSON nesting a frame may have, the frame object itself counting as one.
 * The reference decoder (serde_json) stops at 128 levels, so 127 is the most it reads.
 */
export const MAX_FRAME_DEPTH = 127;

/** The seven frame type names. */
export const FRAME_TYPES = [
  "hello",
  "ready",
  "lifecycle",
  "call",
  "result",
  "event",
  "error",
] as const;

/** One frame type name. */
export type FrameType = (typeof FRAME_TYPES)[number];

/** Host to module, first: the ABI and the runtime instance. */
export interface HelloFrame {
  /** Always `hello`. */
  type: "hello";
  /** Must equal {@link WIRE_ABI}. */
  abi: string;
  /** The runtime instance identifier (name rule). */
  instance: string;
}

/** Module to host, in answer to hello: the module's full metadata. */
export interface ReadyFrame {
  /** Always `ready`. */
  type: "ready";
  /** The module's identity; `capabilities` may be empty. */
  metadata: ModuleMetadata;
}

/** Host to module: move the module one lifecycle step. */
export interface LifecycleFrame {
  /** Always `lifecycle`. */
  type: "lifecycle";
  /** Echoed by the answering `result` or `error` (name rule). */
  request_id: string;
  /** The operation to run. */
  operation: ModuleOperation;
}

/** Either side: ask the other side to run `method`. */
export interface CallFrame {
  /** Always `call`. */
  type: "call";
  /** Echoed by the answering `result` or `error` (name rule). */
  request_id: string;
  /** The method name (name rule). */
  method: string;
  /** Any JSON value; required, may be `null`. */
  payload: unknown;
}

/** The successful answer to a `call` or `lifecycle` frame. */
export interface ResultFrame {
  /** Always `result`. */
  type: "result";
  /** The `request_id` of the frame answered. */
  request_id: string;
  /** Any JSON value; required, may be `null`. */
  payload: unknown;
}

/** Module to host: something happened. */
export interface EventFrame {
  /** Always `event`. */
  type: "event";
  /** The event name (name rule). */
  name: string;
  /** Any JSON value; required, may be `null`. */
  payload: unknown;
}

/** Either side: a failure, answering a request when `request_id` is present. */
export interface ErrorFrame {
  /** Always `error`. */
  type: "error";
  /** The `request_id` of the frame answered, if this answers one. */
  request_id?: string;
  /** A stable code (name rule). */
  code: string;
  /** A non-empty plain message without NUL; never a secret. */
  message: string;
}

/** Any of the seven frames, tagged by `type`. */
export type ModuleFrame =
  | HelloFrame
  | ReadyFrame
  | LifecycleFrame
  | CallFrame
  | ResultFrame
  | EventFrame
  | ErrorFrame;
