/**
 * The `cortexfs.module.socket/v1` wire codec: the seven frame types, encoding,
 * decoding with one stable error code per malformed case, and an incremental
 * reader for byte streams. No I/O happens here.
 *
 * @example
 * ```ts
 * import { encodeFrame, FrameReader } from "./mod.ts";
 * const bytes = encodeFrame({ type: "event", name: "tick", payload: { n: 1 } });
 * const reader = new FrameReader();
 * for (const result of reader.push(bytes)) {
 *   if (result.ok) console.log(result.frame);
 *   else console.log(result.error.code);
 * }
 * ```
 *
 * @module
 */

export * from "./frame.ts";
export { encodeFrame, encodeFrameText } from "./encode.ts";
export { decodeFrame, decodeFrameBody } from "./decode.ts";
export { parseFrame } from "./parse_frame.ts";
export { FrameReader, type FrameReadResult, type FrameSink } from "./reader.ts";
export { ModuleWireError } from "../errors.ts";
export { MODULE_OPERATIONS, type ModuleOperation } from "../lifecycle.ts";
export { MODULE_KINDS, type ModuleCapability, type ModuleKind, type ModuleMetadata } from "../metadata.ts";
export { CortexError } from "../../runtime/errors.ts";
