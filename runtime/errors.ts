/**
 * Stable errors. Every error the runtime reports carries a short lowercase
 * `code` that callers can match on, and a plain message that never holds a
 * secret or prompt text. {@link ERROR_CODES} lists the codes the core uses;
 * the loaders and contracts add their own in the same form.
 *
 * @module
 */

/**
 * An error with a stable `code`.
 *
 * @example
 * ```ts
 * import { CortexError } from "./errors.ts";
 * throw new CortexError("plugin_not_found", "no plugin named 'x' is installed");
 * ```
 */
export class CortexError extends Error {
  /** The stable code, such as `manifest_invalid`. */
  readonly code: string;

  /**
   * Creates the error.
   * @param code A short lowercase code from {@link ERROR_CODES} or a loader's own list.
   * @param message A plain sentence saying what is wrong.
   * @param options Standard error options (`cause`).
   */
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "CortexError";
    this.code = code;
  }

  /** The `{ code, message }` form used in JSON output and HTTP answers. */
  toJSON(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** The codes the core runtime uses, with what each means. */
export const ERROR_CODES: Readonly<Record<string, string>> = {
  usage: "the command line or request was malformed",
  manifest_missing: "the folder has no manifest.json or cortex.json",
  manifest_not_json: "the manifest is not valid JSON",
  manifest_invalid: "a manifest field is missing or has the wrong type or value",
  entry_missing: "the entry point file does not exist",
  entry_outside: "the entry point resolves outside the plugin folder",
  hash_mismatch: "the manifest's hash does not match the entry file",
  integrity_failed: "a plugin's files changed on disk after install",
  plugin_exists: "a plugin with that name is already installed",
  plugin_not_found: "no plugin with that name is installed",
  dependency_missing: "a plugin this one depends on is not installed",
  dependency_unsatisfied: "an installed dependency's version does not satisfy the range",
  dependency_cycle: "plugins depend on each other in a cycle",
  dependents_exist: "other installed plugins depend on this one",
  plugin_disabled: "the plugin is disabled",
  plugin_not_active: "the plugin is not loaded",
  sandbox_unavailable: "untrusted code cannot run because the Worker sandbox is unavailable",
  signature_invalid: "the plugin's signature is missing, unknown or does not match",
  hook_failed: "a lifecycle hook threw",
  hook_timeout: "a lifecycle hook did not finish before its deadline",
  call_cancelled: "the caller gave up on the call",
  tool_failed: "the tool ran and reported failure",
  not_found: "no such HTTP route",
  forbidden_host: "the request addressed the daemon by a name other than 127.0.0.1 or localhost",
  tool_not_found: "no tool with that name is registered",
  tool_conflict: "a tool with that name belongs to another owner",
  tool_undeclared: "a tool is not declared in the manifest or needs more than it declared",
  args_invalid: "the tool's arguments fail its schema",
  call_timeout: "the tool did not answer before its deadline",
  call_failed: "the tool threw or returned a malformed result",
  middleware_rejected: "a pre-middleware rejected the call",
  middleware_failed: "a middleware threw, timed out or answered malformed",
  permission_denied: "the plugin's effective capabilities do not allow this",
  config_invalid: "the config file is not valid JSON or the value is not JSON",
  store_locked: "the database is locked by another process",
  store_readonly: "the database or its folder is read-only",
  store_failed: "the database refused the operation",
  unauthorized: "the bearer token is missing or wrong",
  bad_request: "the request body or parameters are malformed",
  bad_payload: "a module's call into the runtime carried a malformed payload",
  internal: "an unexpected failure inside the runtime",
};

/** Turns anything thrown into a {@link CortexError}, keeping a code it already has. */
export function toCortexError(error: unknown, fallbackCode = "internal"): CortexError {
  if (error instanceof CortexError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new CortexError(fallbackCode, message, { cause: error });
}

/** A lifecycle hook's failure, naming the hook. */
export class HookError extends CortexError {
  /** The hook that failed, such as `onInstall`. */
  readonly hook: string;

  /**
   * Creates the error.
   * @param hook The hook's name.
   * @param code `hook_failed` or `hook_timeout`.
   * @param message What happened.
   * @param options Standard error options (`cause`).
   */
  constructor(hook: string, code: string, message: string, options?: ErrorOptions) {
    super(code, message, options);
    this.name = "HookError";
    this.hook = hook;
  }
}
