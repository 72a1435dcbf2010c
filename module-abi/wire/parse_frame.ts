/**
 * Turns a parsed JSON value into a validated {@link ModuleFrame}, with the
 * precedence of the reference crate: shape errors (wrong JSON type, unknown
 * enum value) before missing fields, both before rule checks (abi, name rule,
 * metadata, message). Unknown fields are dropped.
 *
 * @module
 */
import { ModuleWireError } from "../errors.ts";
import { MODULE_OPERATIONS } from "../lifecycle.ts";
import {
  findMetadataProblem,
  MODULE_KINDS,
  type ModuleMetadata,
} from "../metadata.ts";
import { isValidName } from "../name.ts";
import {
  FRAME_TYPES,
  type FrameType,
  type ModuleFrame,
  WIRE_ABI,
} from "./frame.ts";

type Shape = "string" | "json" | "operation" | "metadata" | "optional_string";
type Fields = Readonly<Record<string, Shape>>;

const FIELDS: Readonly<Record<FrameType, Fields>> = {
  hello: { abi: "string", instance: "string" },
  ready: { metadata: "metadata" },
  lifecycle: { request_id: "string", operation: "operation" },
  call: { request_id: "string", method: "string", payload: "json" },
  result: { request_id: "string", payload: "json" },
  event: { name: "string", payload: "json" },
  error: { request_id: "optional_string", code: "string", message: "string" },
};

const NAMED: Readonly<Record<FrameType, readonly string[]>> = {
  hello: ["instance"],
  ready: [],
  lifecycle: ["request_id"],
  call: ["request_id", "method"],
  result: ["request_id"],
  event: ["name"],
  error: ["request_id", "code"],
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const invalid = (field: string, why: string) =>
  new ModuleWireError("frame_field_invalid", `field ${field} ${why}`, field);
const missing = (field: string) =>
  new ModuleWireError(
    "frame_field_missing",
    `field ${field} is missing`,
    field,
  );

/**
 * Validates `value` as one frame and returns a fresh frame holding only known
 * fields. Throws {@link ModuleWireError} with one of the `frame_*` codes.
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
    throw new ModuleWireError(
      "frame_not_object",
      "the frame body is not a JSON object",
    );
  }
  if (!Object.hasOwn(value, "type")) {
    throw new ModuleWireError("frame_type_missing", "the frame has no type");
  }
  const type = value.type;
  if (!(FRAME_TYPES as readonly unknown[]).includes(type)) {
    throw new ModuleWireError(
      "frame_type_unknown",
      `type must be one of ${FRAME_TYPES.join(", ")}`,
      "type",
    );
  }
  const fields = FIELDS[type as FrameType];
  const frame: Record<string, unknown> = { type };
  // `undefined` only reaches here from the encoder; it means absent, as in JSON.stringify.
  const has = (field: string) =>
    Object.hasOwn(value, field) && value[field] !== undefined;
  for (const [field, shape] of Object.entries(fields)) {
    if (has(field)) checkShape(field, shape, value[field]);
  }
  for (const [field, shape] of Object.entries(fields)) {
    const present = has(field) &&
      !(shape === "optional_string" && value[field] === null);
    if (present) frame[field] = value[field];
    else if (shape !== "optional_string") throw missing(field);
  }
  checkRules(type as FrameType, frame);
  if (type === "ready") {
    frame.metadata = copyMetadata(frame.metadata as ModuleMetadata);
  }
  return frame as unknown as ModuleFrame;
}

function checkShape(field: string, shape: Shape, value: unknown): void {
  switch (shape) {
    case "json":
      return;
    case "optional_string":
      if (value !== null && typeof value !== "string") {
        throw invalid(field, "must be a string");
      }
      return;
    case "string":
      if (typeof value !== "string") throw invalid(field, "must be a string");
      return;
    case "operation":
      if (!(MODULE_OPERATIONS as readonly unknown[]).includes(value)) {
        throw invalid(field, `must be one of ${MODULE_OPERATIONS.join(", ")}`);
      }
      return;
    case "metadata":
      checkMetadataShape(value);
  }
}

function checkMetadataShape(value: unknown): void {
  if (!isObject(value)) throw invalid("metadata", "must be an object");
  const shapes: Record<string, (v: unknown) => boolean> = {
    id: (v) => typeof v === "string",
    version: (v) => typeof v === "string",
    kind: (v) => (MODULE_KINDS as readonly unknown[]).includes(v),
    capabilities: Array.isArray,
  };
  for (const [field, ok] of Object.entries(shapes)) {
    if (Object.hasOwn(value, field) && !ok(value[field])) {
      throw invalid(`metadata.${field}`, "has a bad value");
    }
    if (field === "capabilities" && Object.hasOwn(value, field)) {
      checkCapabilitiesShape(value[field] as unknown[]);
    }
  }
  for (const field of Object.keys(shapes)) {
    if (!Object.hasOwn(value, field)) throw missing(`metadata.${field}`);
  }
}

function checkCapabilitiesShape(list: unknown[]): void {
  for (const [i, capability] of list.entries()) {
    const at = `metadata.capabilities.${i}`;
    if (!isObject(capability)) throw invalid(at, "must be an object");
    for (const field of ["name", "description"]) {
      if (
        Object.hasOwn(capability, field) &&
        typeof capability[field] !== "string"
      ) {
        throw invalid(`${at}.${field}`, "must be a string");
      }
    }
    for (const field of ["name", "description"]) {
      if (!Object.hasOwn(capability, field)) throw missing(`${at}.${field}`);
    }
  }
}

function checkRules(type: FrameType, frame: Record<string, unknown>): void {
  if (type === "hello" && frame.abi !== WIRE_ABI) {
    throw new ModuleWireError(
      "frame_abi_mismatch",
      `abi must be ${WIRE_ABI}`,
      "abi",
    );
  }
  if (type === "ready") {
    // Shapes passed already, so only the metadata rules can fail here.
    const found = findMetadataProblem(frame.metadata);
    if (found) {
      throw invalid(`metadata.${found.field}`, "breaks the metadata rules");
    }
  }
  for (const field of NAMED[type]) {
    if (Object.hasOwn(frame, field) && !isValidName(frame[field])) {
      throw invalid(field, "breaks the name rule");
    }
  }
  if (type === "error") {
    const message = frame.message as string;
    if (message === "" || message.includes("\0")) {
      throw invalid("message", "must be non-empty and hold no NUL");
    }
  }
}

function copyMetadata(metadata: ModuleMetadata): ModuleMetadata {
  return {
    id: metadata.id,
    version: metadata.version,
    kind: metadata.kind,
    capabilities: metadata.capabilities.map((c) => ({
      name: c.name,
      description: c.description,
    })),
  };
}
