/**
 * Test support for the sandbox suite: a temporary home, a runtime whose
 * sandboxed loader is a real {@link SandboxLoader}, the fixture plugins of
 * `test/sandbox/fixtures/` installed through `Runtime.install` (untrusted,
 * the default), and the bystander check every hostile test ends with.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { SandboxLoader, type SandboxLoaderOptions } from "../../loaders/worker/mod.ts";
import { EventBus } from "../../runtime/event_bus.ts";
import type { CallResult } from "../../runtime/call_path.ts";
import { type InstallResult, Runtime } from "../../runtime/runtime.ts";
import type { PermissionOverride } from "../../runtime/store/mod.ts";

/** Asserts an attempt failed on a permission check, not on something else. */
export function assertDenied(result: CallResult, pattern: RegExp = /NotCapable|Requires .* access/): void {
  assert.equal(result.success, false, `the attempt worked: ${result.output}`);
  assert.match(result.error ?? "", pattern);
  assert.doesNotMatch(result.output, /ESCAPED/);
}

/** The fixture plugins. */
export const FIXTURES: string = join(import.meta.dirname!, "fixtures");

/** Options for {@link openSandbox}. */
export interface SandboxHarnessOptions {
  /** Each plugin's deadline (default 1500 ms). */
  timeoutMs?: number;
  /** Loader options on top of the harness's. */
  loader?: SandboxLoaderOptions;
}

/** A runtime on a temporary home with the sandbox loader. */
export class SandboxHarness {
  /** The temporary home. */
  readonly home: string;
  /** The runtime. */
  readonly runtime: Runtime;
  /** The sandbox loader. */
  readonly sandbox: SandboxLoader;
  /** The bus the runtime emits on. */
  readonly events: EventBus;
  /** Diagnostics the loader reported. */
  readonly diagnostics: string[];

  /** Use {@link openSandbox}. */
  constructor(
    home: string,
    runtime: Runtime,
    sandbox: SandboxLoader,
    events: EventBus,
    diagnostics: string[],
  ) {
    this.home = home;
    this.runtime = runtime;
    this.sandbox = sandbox;
    this.events = events;
    this.diagnostics = diagnostics;
  }

  /** Installs fixture `name`, granting `grants` before it first loads. */
  async install(name: string, grants: PermissionOverride[] = []): Promise<InstallResult> {
    const result = await this.runtime.install(join(FIXTURES, name), { load: false });
    if (grants.length) await this.runtime.setPermissions(name, { overrides: grants });
    try {
      await this.runtime.load(name);
    } catch (error) {
      return { row: this.runtime.plugin(name), loadError: error as InstallResult["loadError"] };
    }
    return { row: this.runtime.plugin(name), loadError: result.loadError };
  }

  /** Calls a tool as the person. */
  async call(tool: string, args: Record<string, unknown> = {}): Promise<CallResult> {
    return await this.runtime.call(tool, args, { caller: "person" });
  }

  /** Asserts the bystander `echo` plugin still answers. */
  async assertEchoAnswers(text = "still here"): Promise<void> {
    const result = await this.call("echo.echo", { text });
    assert.ok(result.success, `echo failed: ${result.errorCode} ${result.error}`);
    assert.equal(result.output, text);
  }

  /** The text of a plugin's log. */
  async log(name: string): Promise<string> {
    return await Deno.readTextFile(join(this.home, "logs", `${name}.log`)).catch(() => "");
  }

  /** Waits until `check` holds, polling (no timed assertion: the test runner's own timeout bounds it). */
  async until(check: () => boolean | Promise<boolean>): Promise<void> {
    while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** Closes the runtime and the loader, and deletes the home. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.runtime.close();
    await this.sandbox.close();
    await Deno.remove(this.home, { recursive: true }).catch(() => {});
  }
}

/** Opens a runtime with the sandbox loader on a new temporary home, with `echo` installed. */
export async function openSandbox(options: SandboxHarnessOptions = {}): Promise<SandboxHarness> {
  const home = await Deno.makeTempDir({ prefix: "cortex-sandbox-test-" });
  const diagnostics: string[] = [];
  const sandbox = new SandboxLoader({
    home,
    onDiagnostic: (line) => diagnostics.push(line),
    ...options.loader,
  });
  const events = new EventBus();
  const runtime = await Runtime.open({
    home,
    loaders: { esmSandboxed: sandbox },
    events,
    defaultTimeoutMs: options.timeoutMs ?? 1500,
  });
  const harness = new SandboxHarness(home, runtime, sandbox, events, diagnostics);
  const echo = await harness.install("echo");
  assert.ok(!echo.loadError, `echo did not load: ${echo.loadError?.message}`);
  return harness;
}
