/**
 * CortexFS modules (`cortexfs.module/v1` and the wire ABI
 * `cortexfs.module.socket/v1`): module metadata, the lifecycle and the
 * in-process registry; the JSONL wire codec; the socket host and its
 * supervisor for external module processes; and the TypeScript SDK module
 * authors use. The spec is `specs/cortexfs-socket-v1.md`; frames, error codes
 * and the host's handshake and deadlines are in this folder's README.md.
 *
 * @example
 * ```ts
 * import { ModuleRegistry } from "./mod.ts";
 * const registry = new ModuleRegistry();
 * registry.register({
 *   metadata: { id: "channel.example", version: "1.0.0", kind: "channel", capabilities: [] },
 *   async init() {},
 *   async start() {},
 *   async stop() {},
 *   async shutdown() {},
 * });
 * await registry.initAll({ instance: "agent-1" });
 * await registry.startAll();
 * registry.state("channel.example"); // "running"
 * ```
 *
 * @module
 */

export { isValidName, NAME_MAX_BYTES } from "./name.ts";
export {
  findMetadataProblem,
  isValidMetadata,
  type MetadataProblem,
  MODULE_API_ID,
  MODULE_KINDS,
  type ModuleCapability,
  type ModuleKind,
  type ModuleMetadata,
  validateMetadata,
} from "./metadata.ts";
export {
  type CortexModule,
  MODULE_OPERATIONS,
  type ModuleContext,
  type ModuleOperation,
  type ModuleState,
  nextState,
  requiredState,
} from "./lifecycle.ts";
export { ModuleRegistry } from "./registry.ts";
export { CortexError } from "../runtime/errors.ts";
export { MODULE_ERROR_CODES, ModuleLifecycleError, ModuleWireError } from "./errors.ts";
export * from "./wire/mod.ts";
export * from "./host/mod.ts";
export {
  type ModuleCallContext,
  type ModuleClient,
  type ModuleMethod,
  runModule,
  type RunModuleOptions,
} from "./client.ts";
