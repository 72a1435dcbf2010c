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
export { encodeFrame } from "./encode.ts";
export { decodeFrame } from "./decode.ts";
export { parseFrame } from "./parse_frame.ts";
export { type FrameReadResult, FrameReader } from "./reader.ts";
