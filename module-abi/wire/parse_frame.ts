/**
 * Turns a parsed JSON value into a validated {@link ModuleFrame}, with the
 * precedence of the reference crate: shape errors (wrong JSON type, unknown
 * enum value) before missing fields, both before rule checks (abi, name rule,
 * metadata, message). Unknown fields are dropped. Written out per frame type
 * because this runs for every frame in both directions.
 *
 * @module
 */
import { ModuleWireError } from "../errors.ts";
import { MODULE_OPERATIONS, type ModuleOperation } from "../lifecycle.ts";
import { findMetadataProblem, MODULE_KINDS, type ModuleMetadata } from "../metadata.ts";
import { isValidName } from "../name.ts";
import { FRAME_TYPES, type ModuleFrame, WIRE_ABI } from "./frame.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const invalid = (field: string, why: string) =>
  new ModuleWireError("frame_field_invalid", `field ${field} ${why}`, field);
const missing = (field: string) =>
  new ModuleWireError("frame_field_missing", `field ${field} is missing`, field);

// `undefined` means absent: JSON never holds it, and for the encoder it matches JSON.stringify.
function shapeString(field: string, value: unknown): void {
  if (value !== undefined && typeof value !== "string") throw invalid(field, "must be a string");
}

function need(field: string, value: unknown): void {
  if (value === undefined) throw missing(field);
}

function named(field: string, value: string): void {
  if (!isValidName(value)) throw invalid(field, "breaks the name rule");
}

/**
 * Validates `value` as one frame and returns a fresh frame holding only known
 * fields, in the wire's field order. Throws {@link ModuleWireError} with one
 * of the `frame_*` codes.
 *
 * @example
 * ```ts
 * import { parseFrame } from "./parse_frame.ts";
 * parseFrame({ type: "event", name: "tick", payload: 1, extra: true });
 * // { type: "event", name: "tick", payload: 1 }
 * ```
 */
export function parseFrame(value: unknown): ModuleFrame {
  if (!isObject(value)) {
    throw new ModuleWireError("frame_not_object", "the frame body is not a JSON object");
  }
  const type = value.type;
  if (type === undefined) throw new ModuleWireError("frame_type_missing", "the frame has no type");
  switch (type) {
    case "call":
      return parseCall(value);
    case "result":
      return parseResult(value);
    case "event":
      return parseEvent(value);
    case "error":
      return parseError(value);
    case "lifecycle":
      return parseLifecycle(value);
    case "hello":
      return parseHello(value);
    case "ready":
      return parseReady(value);
  }
  throw new ModuleWireError(
    "frame_type_unknown",
    `type must be one of ${FRAME_TYPES.join(", ")}`,
    "type",
  );
}

function parseCall(value: Json): ModuleFrame {
  const { request_id, method, payload } = value;
  shapeString("request_id", request_id);
  shapeString("method", method);
  need("request_id", request_id);
  need("method", method);
  need("payload", payload);
  named("request_id", request_id as string);
  named("method", method as string);
  return { type: "call", request_id: request_id as string, method: method as string, payload };
}

function parseResult(value: Json): ModuleFrame {
  const { request_id, payload } = value;
  shapeString("request_id", request_id);
  need("request_id", request_id);
  need("payload", payload);
  named("request_id", request_id as string);
  return { type: "result", request_id: request_id as string, payload };
}

function parseEvent(value: Json): ModuleFrame {
  const { name, payload } = value;
  shapeString("name", name);
  need("name", name);
  need("payload", payload);
  named("name", name as string);
  return { type: "event", name: name as string, payload };
}

function parseError(value: Json): ModuleFrame {
  // The crate reads request_id as an optional string: null and absent both mean "none".
  const requestId = value.request_id ?? undefined;
  const { code, message } = value;
  shapeString("request_id", requestId);
  shapeString("code", code);
  shapeString("message", message);
  need("code", code);
  need("message", message);
  if (requestId !== undefined) named("request_id", requestId as string);
  named("code", code as string);
  if (message === "" || (message as string).includes("\0")) {
    throw invalid("message", "must be non-empty and hold no NUL");
  }
  return requestId === undefined ? { type: "error", code: code as string, message: message as string } : {
    type: "error",
    request_id: requestId as string,
    code: code as string,
    message: message as string,
  };
}

function parseLifecycle(value: Json): ModuleFrame {
  const { request_id, operation } = value;
  shapeString("request_id", request_id);
  if (operation !== undefined && !(MODULE_OPERATIONS as readonly unknown[]).includes(operation)) {
    throw invalid("operation", `must be one of ${MODULE_OPERATIONS.join(", ")}`);
  }
  need("request_id", request_id);
  need("operation", operation);
  named("request_id", request_id as string);
  return {
    type: "lifecycle",
    request_id: request_id as string,
    operation: operation as ModuleOperation,
  };
}

function parseHello(value: Json): ModuleFrame {
  const { abi, instance } = value;
  shapeString("abi", abi);
  shapeString("instance", instance);
  need("abi", abi);
  need("instance", instance);
  if (abi !== WIRE_ABI) {
    throw new ModuleWireError("frame_abi_mismatch", `abi must be ${WIRE_ABI}`, "abi");
  }
  named("instance", instance as string);
  return { type: "hello", abi, instance: instance as string };
}

function parseReady(value: Json): ModuleFrame {
  const metadata = value.metadata;
  if (metadata !== undefined) checkMetadataShape(metadata);
  need("metadata", metadata);
  // Shapes passed already, so only the metadata rules can fail here.
  const found = findMetadataProblem(metadata);
  if (found) throw invalid(`metadata.${found.field}`, "breaks the metadata rules");
  const meta = metadata as ModuleMetadata;
  return {
    type: "ready",
    metadata: {
      id: meta.id,
      version: meta.version,
      kind: meta.kind,
      capabilities: meta.capabilities.map((c) => ({ name: c.name, description: c.description })),
    },
  };
}

function checkMetadataShape(value: unknown): void {
  if (!isObject(value)) throw invalid("metadata", "must be an object");
  const { id, version, kind, capabilities } = value;
  shapeString("metadata.id", id);
  shapeString("metadata.version", version);
  if (kind !== undefined && !(MODULE_KINDS as readonly unknown[]).includes(kind)) {
    throw invalid("metadata.kind", `must be one of ${MODULE_KINDS.join(", ")}`);
  }
  if (capabilities !== undefined) {
    if (!Array.isArray(capabilities)) throw invalid("metadata.capabilities", "must be an array");
    for (const [i, capability] of capabilities.entries()) {
      const at = `metadata.capabilities.${i}`;
      if (!isObject(capability)) throw invalid(at, "must be an object");
      shapeString(`${at}.name`, capability.name);
      shapeString(`${at}.description`, capability.description);
      need(`${at}.name`, capability.name);
      need(`${at}.description`, capability.description);
    }
  }
  need("metadata.id", id);
  need("metadata.version", version);
  need("metadata.kind", kind);
  need("metadata.capabilities", capabilities);
}
