/**
 * The plugin's tool table: register tools at the top level of your entry
 * file; the ABI exports in abi.ts describe and run them.
 *
 * @module
 */

// AssemblyScript has no `import type`; JsonValue is only used as a type here.
// deno-lint-ignore verbatim-module-syntax
import { formatNumber, JsonValue, parseJson, quoteJson } from "./json";

/** One parameter of a tool. */
export class Param {
  name: string;
  type: string;
  description: string;
  required: bool;

  constructor(name: string, type: string, description: string, required: bool) {
    this.name = name;
    this.type = type;
    this.description = description;
    this.required = required;
  }

  /** A string parameter. */
  static string(name: string, description: string, required: bool = true): Param {
    return new Param(name, "string", description, required);
  }

  /** A number parameter. */
  static number(name: string, description: string, required: bool = true): Param {
    return new Param(name, "number", description, required);
  }
}

/** What a tool returns: its output text, or an error message. */
export class ToolResult {
  ok: bool;
  text: string;

  constructor(ok: bool, text: string) {
    this.ok = ok;
    this.text = text;
  }

  /** A successful result. */
  static success(text: string): ToolResult {
    return new ToolResult(true, text);
  }

  /** A successful result holding a number. */
  static number(n: f64): ToolResult {
    return new ToolResult(true, formatNumber(n));
  }

  /** A failure with a message for the caller. */
  static failure(message: string): ToolResult {
    return new ToolResult(false, message);
  }
}

/** A tool implementation: receives the arguments object. */
export type ToolHandler = (args: JsonValue) => ToolResult;

class Tool {
  name: string;
  description: string;
  params: Param[];
  handler: ToolHandler;

  constructor(name: string, description: string, params: Param[], handler: ToolHandler) {
    this.name = name;
    this.description = description;
    this.params = params;
    this.handler = handler;
  }
}

const tools: Tool[] = [];

/** Adds a tool to the plugin's capabilities. */
export function registerTool(
  name: string,
  description: string,
  params: Param[],
  handler: ToolHandler,
): void {
  tools.push(new Tool(name, description, params, handler));
}

/** The capabilities JSON for plugin_get_capabilities. */
export function capabilitiesJson(): string {
  let out = '{"abi_version":1,"tools":[';
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i];
    if (i > 0) out += ",";
    out += '{"name":' + quoteJson(t.name) + ',"description":' +
      quoteJson(t.description) + ',"params":[';
    for (let j = 0; j < t.params.length; j++) {
      const p = t.params[j];
      if (j > 0) out += ",";
      out += '{"name":' + quoteJson(p.name) + ',"type":' + quoteJson(p.type) +
        ',"description":' + quoteJson(p.description) + ',"required":' +
        (p.required ? "true" : "false") + "}";
    }
    out += "]}";
  }
  return out + "]}";
}

/** Runs the tool `name` with its JSON arguments. */
export function runTool(name: string, argsJson: string): ToolResult {
  for (let i = 0; i < tools.length; i++) {
    if (tools[i].name != name) continue;
    const args = parseJson(argsJson);
    if (args === null || args.kind != 5) {
      return ToolResult.failure("the arguments are not a JSON object");
    }
    return tools[i].handler(args);
  }
  return ToolResult.failure("unknown tool " + name);
}
