/**
 * The stable error codes the sandbox loader adds to the core's
 * (`runtime/errors.ts`), listed in one place. It also uses the core's
 * `sandbox_unavailable`, `signature_invalid`, `hook_timeout`, `hook_failed`,
 * `tool_undeclared`, `call_failed` and `plugin_not_active`.
 *
 * @module
 */

/** Every code the sandbox loader adds, with what it means. */
export const SANDBOX_ERROR_CODES: Readonly<Record<string, string>> = {
  sandbox_crashed:
    "the plugin's sandbox ended while the call ran: it looped past its deadline, ran out of memory, " +
    "exited, flooded the host, failed, or shared a process with a plugin that did; it restarts on the next call",
};
