/**
 * Every error code the WASM host reports, with what it means. Start-up
 * problems are thrown by `startWasmPlugin` as CortexError; call problems are
 * the `code` of a failed tool result, except those marked "rejects".
 */
export const WASM_ERROR_CODES: Readonly<Record<string, string>> = {
  bad_option: "an option of startWasmPlugin is out of range",
  not_wasm: "the bytes are not a valid WebAssembly module",
  unknown_import: "the module imports something ABI v1 does not offer",
  bad_import: "an offered import is declared with the wrong kind or signature",
  missing_export: "a required export (or any memory) is missing",
  bad_export: "an export has the wrong kind or signature",
  unsupported_memory: "the memory is 64-bit or shared",
  memory_limit: "the module needs more memory pages at start than maxMemoryPages",
  bad_memory_layout: "the module puts data below 0x100000, or its memory cannot reach 1 MiB",
  start_trapped: "instantiation failed: the start function trapped or a data segment did not fit",
  abi_mismatch: "plugin_get_abi_version did not return 1",
  init_failed: "plugin_init trapped",
  bad_capabilities: "the capabilities JSON does not parse or has the wrong shape",
  no_tools: "the capabilities name no tools",
  start_timeout: "start-up did not finish within callTimeoutMs",
  sandbox_unavailable: "Workers without permissions need --unstable-worker-options",
  tool_failed: "plugin_execute_tool returned a non-zero code; the error is the plugin's message",
  trap: "the plugin trapped (unreachable, out-of-bounds access, stack exhaustion); it was restarted",
  out_of_bounds: "the plugin passed a host import a range outside its memory; it was restarted",
  state_failed: "host_set_state could not store the value; the plugin was restarted",
  no_memory:
    "a host import that reads memory was called from the start function of a module that exports its memory",
  output_too_large: "the output did not fit after the one retry, or exceeded the output limit",
  bad_output: "the output is not UTF-8, or the plugin misreported its size",
  args_too_large: "the arguments JSON exceeds the limit",
  host_heap_full: "the host heap has no room for the call's buffers",
  timeout: "the call did not answer within its deadline; the Worker was replaced",
  worker_failed: "the plugin's Worker died; the next call starts a new one",
  worker_stopped: "the plugin's Worker was stopped while the call ran",
  protocol_error: "the Worker sent a malformed message and was stopped",
  unknown_tool: "rejects: the plugin declares no tool of that name",
  args_invalid: "rejects: the arguments cannot be written as JSON",
  aborted: "rejects: the caller's signal aborted the call",
  plugin_closed: "rejects: the plugin was closed",
};
