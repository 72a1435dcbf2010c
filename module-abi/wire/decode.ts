/**
 * Frame decoding: one complete frame, newline included, to a validated
 * {@link ModuleFrame}. Each malformed case has its own stable code.
 *
 * @module
 */
import { ModuleWireError } from "../errors.ts";
import { MAX_FRAME_BYTES, type ModuleFrame } from "./frame.ts";
import { findJsonProblem, mayHoldJsonProblem } from "./json_value.ts";
import { decodeCanonical } from "./canonical.ts";
import { parseFrame } from "./parse_frame.ts";
import { decodeUtf8 } from "./utf8.ts";

const NEWLINE = 0x0a;

/**
 * Decodes exactly one frame. The checks run in this order, and the first that
 * fails names the error: `frame_too_large`, `frame_too_short`,
 * `frame_unterminated`, `frame_embedded_newline`, `frame_not_json`,
 * `frame_not_object`, `frame_type_missing`, `frame_type_unknown`, then the
 * field checks (`frame_field_invalid` for a wrong JSON type, `frame_field_missing`,
 * then `frame_abi_mismatch` and `frame_field_invalid` for rule breaks).
 *
 * @example
 * ```ts
 * import { decodeFrame } from "./decode.ts";
 * const line = '{"type":"hello","abi":"cortexfs.module.socket/v1","instance":"agent-1"}\n';
 * decodeFrame(new TextEncoder().encode(line));
 * // { type: "hello", abi: "cortexfs.module.socket/v1", instance: "agent-1" }
 * ```
 */
export function decodeFrame(bytes: Uint8Array): ModuleFrame {
  if (bytes.length > MAX_FRAME_BYTES) {
    throw new ModuleWireError("frame_too_large", `a frame is at most ${MAX_FRAME_BYTES} bytes`);
  }
  if (bytes.length < 2) {
    throw new ModuleWireError("frame_too_short", "a frame is at least 2 bytes");
  }
  if (bytes[bytes.length - 1] !== NEWLINE) {
    throw new ModuleWireError("frame_unterminated", "a frame must end in a newline");
  }
  const body = bytes.subarray(0, bytes.length - 1);
  if (body.indexOf(NEWLINE) !== -1) {
    throw new ModuleWireError("frame_embedded_newline", "a frame body must hold no newline");
  }
  const text = decodeUtf8(body);
  if (text === undefined) throw new ModuleWireError("frame_not_json", "the frame body is not UTF-8");
  return decodeFrameBody(text);
}

/**
 * Decodes a frame body already checked for framing and decoded from UTF-8:
 * the JSON and field checks of {@link decodeFrame}. For readers that decode
 * many lines of a chunk in one go; such a reader may pass `mayHoldProblem`
 * (what `mayHoldJsonProblem` says of `text`) when it knows it more cheaply.
 *
 * @example
 * ```ts
 * import { decodeFrameBody } from "./decode.ts";
 * decodeFrameBody('{"type":"event","name":"tick","payload":1}');
 * ```
 */
export function decodeFrameBody(
  text: string,
  mayHoldProblem: boolean = mayHoldJsonProblem(text),
): ModuleFrame {
  const canonical = decodeCanonical(text, mayHoldProblem);
  if (canonical !== undefined) return canonical;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ModuleWireError("frame_not_json", "the frame body is not JSON");
  }
  if (mayHoldProblem) {
    const found = findJsonProblem(value, 1);
    if (found) {
      throw new ModuleWireError(
        "frame_not_json",
        `the frame body holds JSON the ABI refuses (${found})`,
      );
    }
  }
  return parseFrame(value);
}
