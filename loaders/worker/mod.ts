/**
 * The sandboxed ESM loader (`loaders.esmSandboxed`): untrusted and signed
 * plugins run in permission-restricted Deno Workers, hosted by supervised
 * `deno run` processes that the runtime kills and restarts when a plugin
 * loops, runs out of memory, exits or floods. See README.md in this folder
 * for the design, the layout choice and its figures.
 *
 * @example
 * ```ts ignore
 * import { Runtime } from "../../runtime/runtime.ts";
 * import { SandboxLoader } from "./mod.ts";
 *
 * const sandbox = new SandboxLoader({ home: "/tmp/cortex-home" });
 * const runtime = await Runtime.open({ home: "/tmp/cortex-home", loaders: { esmSandboxed: sandbox } });
 * await runtime.install("./examples/esm/hello"); // untrusted: runs in a Worker
 * console.log(sandbox.processes()); // [{ pid, shared: true, plugins: ["hello"], rssMb }]
 * await runtime.close();
 * await sandbox.close();
 * ```
 *
 * @module
 */
export { SandboxLoader, type SandboxLoaderOptions } from "./sandbox_loader.ts";
export type { SandboxProcessInfo } from "./sandbox_pool.ts";
export type { CrashPolicy } from "./crash_history.ts";
export { SANDBOX_ERROR_CODES } from "./error_codes.ts";
export {
  type DerivedPermissions,
  type DeriveOptions,
  derivePermissions,
  type PermissionInput,
} from "./derive_permissions.ts";
export { filterNetGrants, type NetGrantOptions, type RefusedGrant } from "./net_grants.ts";
