/**
 * Frame encoding: validate, then serialize in the reference crate's field
 * order (`type` first, then the fields as the spec lists them) with one
 * trailing newline.
 *
 * @module
 */
import { ModuleWireError } from "../errors.ts";
import { MAX_FRAME_BYTES, type ModuleFrame } from "./frame.ts";
import { findJsonProblem } from "./json_value.ts";
import { parseFrame } from "./parse_frame.ts";

const encoder = new TextEncoder();

/**
 * Encodes one frame as UTF-8 JSON plus `\n`. Throws {@link ModuleWireError}
 * when the frame breaks a rule (the same codes the decoder uses), when a field
 * holds something that is not JSON (`undefined`, NaN, a Date, a cycle, a lone
 * surrogate), or when the result would exceed 1 MiB (`frame_too_large`).
 *
 * @example
 * ```ts
 * import { encodeFrame } from "./encode.ts";
 * const bytes = encodeFrame({ type: "call", request_id: "c1", method: "echo", payload: "hi" });
 * new TextDecoder().decode(bytes);
 * // '{"type":"call","request_id":"c1","method":"echo","payload":"hi"}\n'
 * ```
 */
export function encodeFrame(frame: ModuleFrame): Uint8Array {
  for (const [field, value] of Object.entries(frame)) {
    if (value === undefined) continue;
    const found = findJsonProblem(value, 2);
    if (found) {
      throw new ModuleWireError(
        "frame_field_invalid",
        `field ${field} is not wire JSON (${found})`,
        field,
      );
    }
  }
  const bytes = encoder.encode(JSON.stringify(parseFrame(frame)) + "\n");
  if (bytes.length > MAX_FRAME_BYTES) {
    throw new ModuleWireError(
      "frame_too_large",
      `the encoded frame is ${bytes.length} bytes, more than ${MAX_FRAME_BYTES}`,
    );
  }
  return bytes;
}
