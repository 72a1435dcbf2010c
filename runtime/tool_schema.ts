/**
 * Tool input schemas. Manifest `params` become a JSON Schema (for agents and
 * MCP clients) and a compiled validator that runs before every `execute`.
 *
 * @module
 */
import type { ToolParam } from "../plugin_api/types.ts";

/** Checks arguments; returns the problems, or an empty array when they are fine. */
export type ArgsValidator = (args: Record<string, unknown>) => string[];

/** The JSON Schema of a tool's arguments. */
export function paramsToJsonSchema(params: readonly ToolParam[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of params) {
    const prop: Record<string, unknown> = { type: p.type };
    if (p.description) prop.description = p.description;
    if (p.enum) prop.enum = [...p.enum];
    properties[p.name] = prop;
    if (p.required) required.push(p.name);
  }
  return {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isFinite(value) ? "number" : "non-finite number";
  return typeof value;
}

function missingRequired(args: Record<string, unknown>, required: readonly string[]): string[] {
  return required.filter((name) => args[name] === undefined).map((name) => `"${name}" is required`);
}

/** Compiles a validator for `params`: required names, types, enums, no unknown names. */
export function compileParamsValidator(params: readonly ToolParam[]): ArgsValidator {
  const byName = new Map(params.map((p) => [p.name, p]));
  const required = params.filter((p) => p.required).map((p) => p.name);
  return (args) => {
    const problems = missingRequired(args, required);
    for (const name in args) {
      if (!Object.hasOwn(args, name)) continue;
      const value = args[name];
      if (value === undefined) continue;
      const param = byName.get(name);
      if (!param) {
        problems.push(`"${name}" is not a parameter of this tool`);
        continue;
      }
      const actual = typeOf(value);
      if (actual !== param.type) {
        problems.push(`"${name}" must be ${param.type}, got ${actual}`);
      } else if (param.enum && !param.enum.includes(value as string)) {
        problems.push(`"${name}" must be one of ${param.enum.map((e) => JSON.stringify(e)).join(", ")}`);
      }
    }
    return problems;
  };
}

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

/**
 * Compiles a validator for a raw JSON Schema of an object: `required`, and
 * the `type` and `enum` of each listed property. Deeper checks stay with the
 * tool's own server (MCP, WASM), which validates again.
 */
export function compileJsonSchemaValidator(schema: Record<string, unknown>): ArgsValidator {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(schema.required) ? schema.required as string[] : [];
  const closed = schema.additionalProperties === false;
  return (args) => {
    const problems = missingRequired(args, required);
    for (const name in args) {
      if (!Object.hasOwn(args, name)) continue;
      const prop = properties[name];
      if (!prop) {
        if (closed) problems.push(`"${name}" is not a parameter of this tool`);
        continue;
      }
      const expected = prop.type;
      const value = args[name];
      const actual = typeOf(value);
      const types = (Array.isArray(expected) ? expected : [expected]).filter((t) =>
        typeof t === "string" && JSON_TYPES.has(t)
      ) as string[];
      const ok = types.length === 0 ||
        types.some((t) =>
          t === actual || (t === "integer" && actual === "number" && Number.isInteger(value)) ||
          (t === "null" && value === null)
        );
      if (!ok) problems.push(`"${name}" must be ${types.join(" or ")}, got ${actual}`);
      if (ok && Array.isArray(prop.enum) && !prop.enum.some((e) => e === value)) {
        problems.push(`"${name}" must be one of ${prop.enum.map((e) => JSON.stringify(e)).join(", ")}`);
      }
    }
    return problems;
  };
}
