/**
 * Example Cortex WASM plugin in AssemblyScript (ABI v1): echo, add, count
 * (state) and greet (config). Built by wasm-abi/build_examples.ts.
 *
 * @module
 */

// AssemblyScript has no `import type`; JsonValue is only used as a type here.
// deno-lint-ignore verbatim-module-syntax
import { JsonValue } from "../../../wasm-abi/assemblyscript/assembly/index";
import {
  getConfig,
  getState,
  Param,
  registerTool,
  setState,
  ToolResult,
} from "../../../wasm-abi/assemblyscript/assembly/index";
export {
  plugin_execute_tool,
  plugin_get_abi_version,
  plugin_get_capabilities,
} from "../../../wasm-abi/assemblyscript/assembly/index";

function echo(args: JsonValue): ToolResult {
  const text = args.getString("text");
  if (text === null) return ToolResult.failure("echo needs a string argument 'text'");
  return ToolResult.success(text);
}

function add(args: JsonValue): ToolResult {
  const a = args.getNumber("a");
  const b = args.getNumber("b");
  if (isNaN(a) || isNaN(b)) return ToolResult.failure("add needs numbers 'a' and 'b'");
  return ToolResult.number(a + b);
}

function count(_args: JsonValue): ToolResult {
  const stored = getState("count");
  const next = (stored === null ? 0 : I64.parseInt(stored)) + 1;
  setState("count", next.toString());
  return ToolResult.success(next.toString());
}

function greet(args: JsonValue): ToolResult {
  const name = args.getString("name");
  if (name === null) return ToolResult.failure("greet needs a string argument 'name'");
  const configured = getConfig("greeting");
  const greeting = configured === null ? "Hello" : configured;
  return ToolResult.success(greeting + ", " + name + "!");
}

registerTool("echo", "Returns the text it is given", [
  Param.string("text", "Text to return"),
], echo);
registerTool("add", "Adds two numbers", [
  Param.number("a", "First number"),
  Param.number("b", "Second number"),
], add);
registerTool(
  "count",
  "Counts its calls in persistent state and returns the new count",
  [],
  count,
);
registerTool(
  "greet",
  "Greets someone with the configured greeting (config key: greeting)",
  [Param.string("name", "Who to greet")],
  greet,
);
