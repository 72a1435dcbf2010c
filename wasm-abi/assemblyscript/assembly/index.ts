/**
 * Cortex WASM plugin kit for AssemblyScript (ABI v1).
 *
 * ```ts
 * import { JsonValue, Param, registerTool, ToolResult } from "<kit>/assembly/index";
 * export {
 *   plugin_execute_tool,
 *   plugin_get_abi_version,
 *   plugin_get_capabilities,
 * } from "<kit>/assembly/index";
 *
 * function echo(args: JsonValue): ToolResult {
 *   const text = args.getString("text");
 *   return text === null ? ToolResult.failure("text is required") : ToolResult.success(text);
 * }
 * registerTool("echo", "Returns its text", [Param.string("text", "Text to return")], echo);
 * ```
 *
 * Build: `asc plugin.ts -o plugin.wasm -O3 --memoryBase 1048576
 * --use abort=<kit>/assembly/abi/cortexAbort` (see wasm-abi/README.md).
 *
 * @module
 */

export * from "./abi";
export * from "./host";
export * from "./json";
export * from "./tools";
