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
import { isValidName } from "../name.ts";

const encoder = new TextEncoder();

/**
 * Encodes one frame as its JSON text plus `\n`, checked and ready to write.
 * Throws {@link ModuleWireError} when the frame breaks a rule (the same codes
 * the decoder uses), when a field holds something that is not JSON
 * (`undefined` outside an object, NaN, a Date, a cycle, a lone surrogate), or
 * when the UTF-8 form would exceed 1 MiB (`frame_too_large`). Writers that
 * batch frames encode the joined text once.
 *
 * @example
 * ```ts
 * import { encodeFrameText } from "./encode.ts";
 * encodeFrameText({ type: "call", request_id: "c1", method: "echo", payload: "hi" });
 * // '{"type":"call","request_id":"c1","method":"echo","payload":"hi"}\n'
 * ```
 */
export function encodeFrameText(frame: ModuleFrame): string {
  const fast = fastText(frame);
  if (fast !== undefined) return checkSize(fast);
  const record = frame as unknown as Record<string, unknown>;
  for (const field in record) {
    const value = record[field];
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
  return checkSize(JSON.stringify(parseFrame(frame)) + "\n");
}

// The frames that carry payloads, valid and well-formed, built by concatenation: names hold
// only characters JSON never escapes, so quoting them is enough, and the text comes out in wire
// order. Strings are not walked for lone surrogates: JSON.stringify escapes any it meets as
// \uDXXX, so a look at the payload's text finds them (and it holds no "\u" at all in the usual
// case). Anything unusual returns undefined and takes the general path, which also finds the
// exact error. (Measured in the bench: stringifying a wrapper object, or searching the joined
// text, each cost more than this.)
function fastText(frame: ModuleFrame): string | undefined {
  switch (frame.type) {
    case "result": {
      if (!isValidName(frame.request_id)) return undefined;
      const payload = payloadText(frame.payload);
      if (payload === undefined) return undefined;
      return `{"type":"result","request_id":"${frame.request_id}","payload":${payload}}\n`;
    }
    case "call": {
      if (!isValidName(frame.request_id) || !isValidName(frame.method)) return undefined;
      const payload = payloadText(frame.payload);
      if (payload === undefined) return undefined;
      return `{"type":"call","request_id":"${frame.request_id}","method":"${frame.method}","payload":${payload}}\n`;
    }
    case "event": {
      if (!isValidName(frame.name)) return undefined;
      const payload = payloadText(frame.payload);
      if (payload === undefined) return undefined;
      return `{"type":"event","name":"${frame.name}","payload":${payload}}\n`;
    }
    default:
      return undefined;
  }
}

// The payload's JSON text, or undefined when the payload is absent or not wire JSON.
function payloadText(payload: unknown): string | undefined {
  if (payload === undefined || findJsonProblem(payload, 2, PAYLOAD_CHECK) !== undefined) return undefined;
  const text = JSON.stringify(payload);
  return text.includes("\\u") && SURROGATE_ESCAPE.test(text) ? undefined : text;
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const PAYLOAD_CHECK = { strings: false };

function checkSize(text: string): string {
  // UTF-16 length times 3 bounds the UTF-8 length, so most frames skip the exact count.
  if (text.length * 3 > MAX_FRAME_BYTES && utf8Length(text) > MAX_FRAME_BYTES) {
    throw new ModuleWireError(
      "frame_too_large",
      `the encoded frame is more than ${MAX_FRAME_BYTES} bytes`,
    );
  }
  return text;
}

/**
 * Encodes one frame as UTF-8 bytes ending in `\n`; see {@link encodeFrameText}.
 *
 * @example
 * ```ts
 * import { encodeFrame } from "./encode.ts";
 * const bytes = encodeFrame({ type: "event", name: "tick", payload: null });
 * bytes[bytes.length - 1]; // 10
 * ```
 */
export function encodeFrame(frame: ModuleFrame): Uint8Array {
  return encoder.encode(encodeFrameText(frame));
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
