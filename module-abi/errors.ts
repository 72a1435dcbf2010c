/**
 * The stable error codes of the module ABI, listed in one place, and the two
 * error classes that carry more than `{ code, message }`.
 *
 * @module
 */
import { CortexError } from "../runtime/errors.ts";

/** Every code the module ABI throws or sends, with what it means. */
export const MODULE_ERROR_CODES: Readonly<Record<string, string>> = {
  // Static API.
  invalid_metadata: "module metadata breaks the name rule, has a blank version or a NUL",
  invalid_instance: "the instance identifier breaks the name rule",
  duplicate_module: "a module with that id is already registered",
  unknown_module: "no module with that id is registered",
  invalid_state: "the lifecycle operation is not allowed in the module's current state",
  registry_busy: "another registry operation is still running",
  lifecycle_failed: "a module's own init, start, stop or shutdown failed",
  // Wire codec.
  frame_too_short: "the frame is shorter than 2 bytes",
  frame_too_large: "the frame is longer than 1 MiB, newline included",
  frame_unterminated: "the frame does not end in a newline",
  frame_embedded_newline: "the frame body holds another newline",
  frame_not_json: "the frame body is not UTF-8 JSON the reference decoder accepts",
  frame_not_object: "the frame body is JSON but not an object",
  frame_type_missing: "the frame has no type",
  frame_type_unknown: "the frame's type is not one of the seven frame types",
  frame_field_missing: "a required field is missing",
  frame_field_invalid: "a field has the wrong type or breaks the name rule",
  frame_abi_mismatch: "a hello frame carries another abi",
  // Host and client.
  socket_path_too_long: "the socket path does not fit a Unix socket address",
  spawn_failed: "the module's command could not be started",
  ready_timeout: "the module did not connect and answer hello before its deadline",
  lifecycle_timeout: "the module did not answer a lifecycle frame before its deadline",
  handshake_failed: "the module sent something other than ready in answer to hello",
  call_timeout: "the other side did not answer a call before its deadline",
  call_aborted: "the caller aborted the call",
  call_failed: "the handler threw something that is not a CortexError",
  unknown_method: "the other side has no handler for that method",
  protocol_violation: "the other side sent a frame that is malformed or out of order",
  connection_closed: "the connection closed before the answer arrived",
  module_exited: "the module process exited",
  module_not_running: "the module is not running",
  module_disabled: "the supervisor disabled the module after repeated failures",
};

/** A malformed frame: the code names the case, `field` the offending field if any. */
export class ModuleWireError extends CortexError {
  /** The field that is missing or invalid, such as `request_id` or `metadata.kind`. */
  readonly field?: string;

  /**
   * Creates the error.
   * @param code One of the `frame_*` codes of {@link MODULE_ERROR_CODES}.
   * @param message A plain sentence saying what is wrong.
   * @param field The offending field, when there is one.
   */
  constructor(code: string, message: string, field?: string) {
    super(code, message);
    this.name = "ModuleWireError";
    if (field !== undefined) this.field = field;
  }
}

/** A module's own lifecycle failure, wrapped so the module id and operation survive. */
export class ModuleLifecycleError extends CortexError {
  /** The id of the module that failed. */
  readonly module: string;
  /** The operation that failed: `init`, `start`, `stop` or `shutdown`. */
  readonly operation: string;

  /**
   * Wraps what a module threw.
   * @param module The failing module's id.
   * @param operation The lifecycle operation it failed.
   * @param cause What the module threw.
   */
  constructor(module: string, operation: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      "lifecycle_failed",
      `module ${module} ${operation} failed: ${reason}`,
      { cause },
    );
    this.name = "ModuleLifecycleError";
    this.module = module;
    this.operation = operation;
  }
}
