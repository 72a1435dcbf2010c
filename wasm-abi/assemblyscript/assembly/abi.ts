/**
 * The exports of Cortex WASM ABI v1. Re-export the three plugin_* functions
 * from your entry file; build with `--use abort=.../abi/cortexAbort` so that
 * an assertion failure logs and traps instead of importing env.abort.
 *
 * @module
 */

import { log } from "./host";
import { CORTEX_ERR, CORTEX_ERR_BUFFER_TOO_SMALL, CORTEX_OK } from "./host";
import { capabilitiesJson, runTool } from "./tools";

let pendingName: string | null = null;
let pendingArgs: string | null = null;
let pendingOut: ArrayBuffer | null = null;
let pendingCode: i32 = 0;

function writeOutput(bytes: ArrayBuffer, outPtr: usize, outLenPtr: usize, code: i32): i32 {
  const capacity = load<u32>(outLenPtr);
  const length = <u32> bytes.byteLength;
  store<u32>(outLenPtr, length);
  if (length > capacity) return CORTEX_ERR_BUFFER_TOO_SMALL;
  memory.copy(outPtr, changetype<usize>(bytes), length);
  return code;
}

/** ABI version 1. */
export function plugin_get_abi_version(): i32 {
  return 1;
}

/** Writes the capabilities JSON built from the registered tools. */
export function plugin_get_capabilities(outPtr: usize, outLenPtr: usize): i32 {
  return writeOutput(String.UTF8.encode(capabilitiesJson()), outPtr, outLenPtr, CORTEX_OK);
}

/**
 * Runs a registered tool. When its output does not fit, the output is kept
 * and the host's retry (same name and arguments) is answered from it, so a
 * tool with side effects never runs twice for one call.
 */
export function plugin_execute_tool(
  namePtr: usize,
  nameLen: u32,
  argsPtr: usize,
  argsLen: u32,
  outPtr: usize,
  outLenPtr: usize,
): i32 {
  const name = String.UTF8.decodeUnsafe(namePtr, nameLen);
  const args = String.UTF8.decodeUnsafe(argsPtr, argsLen);
  const kept = pendingOut;
  const retry = kept !== null && pendingName == name && pendingArgs == args;
  pendingOut = null;
  pendingName = null;
  pendingArgs = null;
  if (retry) return writeOutput(kept!, outPtr, outLenPtr, pendingCode);
  const result = runTool(name, args);
  const bytes = String.UTF8.encode(result.text);
  const code = result.ok ? CORTEX_OK : CORTEX_ERR;
  const rc = writeOutput(bytes, outPtr, outLenPtr, code);
  if (rc == CORTEX_ERR_BUFFER_TOO_SMALL) {
    pendingOut = bytes;
    pendingName = name;
    pendingArgs = args;
    pendingCode = code;
  }
  return rc;
}

/** Replaces AssemblyScript's `abort`: logs where it happened, then traps. */
export function cortexAbort(
  message: string | null,
  fileName: string | null,
  line: u32,
  column: u32,
): void {
  let text = "abort";
  if (message !== null) text += ": " + message;
  if (fileName !== null) text += " at " + fileName + ":" + line.toString() + ":" + column.toString();
  log(text);
  unreachable();
}
