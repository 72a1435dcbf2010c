/**
 * Inside a plugin's Worker, before the plugin's code runs: route `console`
 * to the plugin's log (the process's stdout is not the plugin's to write),
 * make `Deno.exit` and `close` tell the host before the Worker ends, keep a
 * stray async error from silently ending the Worker, and remove
 * `BroadcastChannel`, the one way Workers of one process could talk without
 * the host.
 *
 * None of this is the security boundary (Deno's Worker permissions and the
 * host's checks are); it keeps a plugin's mistakes visible and attributable.
 *
 * @module
 */

/** Where the lockdown reports to. */
export interface LockdownSinks {
  /** Writes a log line for this plugin. */
  log(level: "debug" | "info" | "warn" | "error", text: string): void;
  /** Tells the host the plugin is ending its Worker; resolves once the notice is sent. */
  exiting(code: number): Promise<void>;
}

/** One line for a thrown value. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    return error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message;
  }
  return String(error);
}

function format(args: unknown[]): string {
  return args.map((a) => (typeof a === "string" ? a : Deno.inspect(a, { depth: 4 }))).join(" ");
}

/** Applies the lockdown to this Worker's global scope. */
export function lockDown(sinks: LockdownSinks): void {
  const c = console as unknown as Record<string, unknown>;
  c.log = c.info = (...args: unknown[]) => sinks.log("info", format(args));
  c.debug = (...args: unknown[]) => sinks.log("debug", format(args));
  c.warn = (...args: unknown[]) => sinks.log("warn", format(args));
  c.error = c.trace = (...args: unknown[]) => sinks.log("error", format(args));

  const scope = globalThis as unknown as Record<string, unknown> & { close(): void };
  const realExit = Deno.exit;
  const realClose = scope.close.bind(scope);
  // The notice goes out first, then the Worker ends; `exit` unwinds the caller meanwhile, as it never returns.
  Object.defineProperty(Deno, "exit", {
    value: (code?: number) => {
      const exitCode = typeof code === "number" ? code : 0;
      void sinks.exiting(exitCode).finally(() => realExit(exitCode));
      throw new Error(`Deno.exit(${exitCode}) was called: the plugin's Worker is ending`);
    },
    writable: false,
    configurable: false,
  });
  Object.defineProperty(globalThis, "close", {
    value: () => {
      void sinks.exiting(0).finally(realClose);
    },
    writable: false,
    configurable: false,
  });
  delete scope.BroadcastChannel;

  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    sinks.log("error", `unhandled rejection: ${describeError(event.reason)}`);
  });
  globalThis.addEventListener("error", (event) => {
    event.preventDefault();
    sinks.log("error", `uncaught error: ${describeError(event.error ?? event.message)}`);
  });
}
