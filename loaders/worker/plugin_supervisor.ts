/**
 * Keeps one sandboxed plugin running. It places the plugin's Worker in a
 * process, runs its calls with their deadlines, and when a call or hook
 * misses its deadline pings the Worker: a Worker that answers was only slow
 * (its call is cancelled); one that does not is stuck, and its process is
 * killed so its core and memory come back. A heartbeat catches a loop no
 * call is waiting on.
 *
 * A crash (the plugin stuck, out of memory, exiting, flooding, failing) is
 * answered with a clear error; the plugin restarts on its next call (at once
 * the first time, then with a doubling wait) with `onLoad` and `onActivate`
 * run again, in a process of its own from then on. After `maxCrashes`
 * crashes within the window it stays stopped and the runtime is told
 * (`onCrash`), which unloads it with status `error` until the person enables
 * it again. A plugin that only shared a process with the one at fault is not
 * counted: it restarts at once.
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import { CortexError, toCortexError } from "../../runtime/errors.ts";
import type { HookName, LoadRequest, ToolInvoker } from "../../runtime/loader.ts";
import { abortable, sleep } from "./_async.ts";
import { CellLink, type ReadyReport } from "./cell_link.ts";
import { CellServices } from "./cell_services.ts";
import { CrashHistory, type CrashPolicy } from "./crash_history.ts";
import type { DerivedPermissions } from "./derive_permissions.ts";
import type { ProcessCeiling } from "./process_flags.ts";
import type { SandboxPool } from "./sandbox_pool.ts";
import type { Guilt } from "./sandbox_process.ts";

/** How one plugin is supervised. */
export interface SupervisorSettings {
  /** The processes. */
  pool: SandboxPool;
  /** Its derived permissions. */
  permissions: DerivedPermissions;
  /** Its V8 heap cap, in MiB. */
  heapMb: number;
  /** Whether it may share a process (unprivileged, shared layout). */
  shareable: boolean;
  /** The key of the shared processes it may join. */
  shareKey: string;
  /** The shared processes' read ceiling. */
  sharedRead: string[];
  /** Paths every process is refused. */
  deny: string[];
  /** The plugin's code and data folders, as the Worker sees them. */
  dirs: { pluginDir: string; dataDir: string };
  /** How long a Worker has to answer a ping after a missed deadline. */
  stuckGraceMs: number;
  /** Heartbeat interval (0: none). */
  heartbeatMs: number;
  /** When to give up. */
  crashPolicy: CrashPolicy;
  /** The message cap. */
  maxMessageChars: number;
}

type State = "starting" | "ready" | "down" | "restarting" | "failed" | "stopped";

/** Hooks that bring a plugin up: they may restart it; the others never do. */
const STARTING_HOOKS: ReadonlySet<HookName> = new Set(["onInstall", "onLoad", "onActivate"]);
/** Hooks run again in a restarted Worker, when they had run before. */
const REPLAYED_HOOKS: readonly HookName[] = ["onLoad", "onActivate"];

/** Supervises one sandboxed plugin. */
export class PluginSupervisor {
  #req: LoadRequest;
  #s: SupervisorSettings;
  #services: CellServices;
  #link?: CellLink;
  #state: State = "starting";
  #crashes: CrashHistory;
  #quarantined = false;
  #hooksDone = new Set<HookName>();
  #restarting?: Promise<CellLink>;
  #heartbeat?: ReturnType<typeof setInterval>;
  #stopping = new AbortController();
  #stopped?: Promise<void>;

  /**
   * @param request What the runtime asked to load.
   * @param settings How to supervise it.
   */
  constructor(request: LoadRequest, settings: SupervisorSettings) {
    this.#req = request;
    this.#s = settings;
    this.#crashes = new CrashHistory(settings.crashPolicy);
    this.#services = new CellServices(request.services, {
      invoke: (name) => this.invoker(name),
      forward: (type, payload) => this.#notify({ t: "bus", type, payload }),
    });
  }

  /** The plugin's name. */
  get name(): string {
    return this.#req.row.name;
  }

  /** Whether it is running now. */
  get running(): boolean {
    return this.#state === "ready" && this.#link !== undefined && !this.#link.ended;
  }

  /** Starts the plugin the first time; resolves with what it exports. */
  async start(): Promise<ReadyReport> {
    try {
      const { link, ready } = await this.#spawn();
      if (this.#state !== "starting") {
        await this.#discard(link);
        throw new CortexError("plugin_not_active", `plugin ${this.name} was unloaded while it loaded`);
      }
      this.#link = link;
      this.#state = "ready";
      this.#startHeartbeat(link);
      return ready;
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Runs a call in the plugin's Worker, restarting it first if it crashed. */
  async call(body: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    const link = await this.#running(signal);
    return await link.call(body, signal, (reason) => this.#missedDeadline(link, reason));
  }

  /** The invoker of tool `name`. */
  invoker(name: string): ToolInvoker {
    return (args, ctx) =>
      this.call({
        op: "invoke",
        tool: name,
        args,
        ctx: {
          caller: ctx.caller,
          sessionId: ctx.sessionId,
          agentId: ctx.agentId,
          workingDir: ctx.workingDir,
          workspaceDir: ctx.workspaceDir,
        },
      }, ctx.signal);
  }

  /** Runs a lifecycle hook. A crashed plugin is restarted only for the hooks that bring it up. */
  async hook(name: HookName, signal: AbortSignal): Promise<void> {
    if (!this.running && !STARTING_HOOKS.has(name)) return;
    await this.call({ op: "hook", name }, signal);
    if (REPLAYED_HOOKS.includes(name)) this.#hooksDone.add(name);
    if (name === "onDeactivate") this.#hooksDone.delete("onActivate");
  }

  /** Runs `onConfigChange` (skipped while crashed: a restarted Worker reads its config afresh). */
  async configChanged(key: string, value: unknown, signal: AbortSignal): Promise<void> {
    if (!this.running) return;
    await this.call({ op: "config", key, value }, signal);
  }

  /** Delivers a subscribed event to `onEvent` (dropped while crashed). */
  deliverEvent(type: string, payload: unknown): void {
    this.#notify({ t: "event", type, payload });
  }

  /** Stops the plugin and releases its process; resolves when done (every caller waits for the same stop). */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#state = "stopped";
    this.#stopping.abort();
    this.#stopHeartbeat();
    await this.#restarting?.catch(() => {});
    const link = this.#link;
    this.#link = undefined;
    this.#services.dropSubscriptions();
    if (link) await this.#discard(link);
  }

  #notify(message: Record<string, unknown>): void {
    if (this.running) this.#link!.notify(message);
  }

  #ceiling(shared: boolean): ProcessCeiling {
    const p = this.#s.permissions;
    if (shared) {
      return {
        read: this.#s.sharedRead,
        write: [],
        net: [],
        run: [],
        deny: this.#s.deny,
        heapMb: this.#s.heapMb,
      };
    }
    return {
      read: p.read,
      write: p.write,
      net: p.net,
      run: p.run,
      deny: this.#s.deny,
      heapMb: this.#s.heapMb,
    };
  }

  async #spawn(): Promise<{ link: CellLink; ready: ReadyReport }> {
    const link = new CellLink(this.name, {
      request: (op, key, value) => this.#services.request(op, key, value),
      notice: (message) => this.#services.notice(message),
      warn: (text) => this.#services.warn(text),
      ended: (ended, reason, guilty) => this.#ended(ended, reason, guilty),
    }, this.#s.maxMessageChars);
    const shared = this.#s.shareable && !this.#quarantined;
    const process = await this.#s.pool.acquire(this.#ceiling(shared), shared ? this.#s.shareKey : undefined);
    link.bind(process);
    try {
      const init = {
        entry: pathToFileURL(this.#req.entryFile ?? "").href,
        pluginId: this.name,
        pluginDir: this.#req.services.pluginDir,
        dataDir: this.#req.services.dataDir,
        capabilities: this.#req.capabilities,
      };
      const ready = await this.#deadline(
        link,
        link.start(this.#s.permissions.worker, init),
        new CortexError(
          "hook_timeout",
          `loading ${this.name} did not finish within ${this.#req.timeoutMs} ms`,
        ),
      );
      return { link, ready };
    } catch (error) {
      await this.#discard(link);
      throw error;
    }
  }

  /** Waits for `work` until the plugin's deadline; then pings, and kills a stuck cell's process. */
  #deadline<T>(link: CellLink, work: Promise<T>, timeout: CortexError): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#missedDeadline(link, timeout);
        reject(timeout);
      }, this.#req.timeoutMs);
      work.then((value) => {
        clearTimeout(timer);
        resolve(value);
      }, (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  #missedDeadline(link: CellLink, reason: unknown): void {
    // The caller giving up is not the plugin's fault; the heartbeat still watches it.
    if (reason instanceof CortexError && reason.code === "call_cancelled") return;
    // A Worker that never connected runs no plugin code yet: stopping it is enough.
    if (!link.connected) return link.close();
    void this.#s.pool.track(
      link.ping(this.#s.stuckGraceMs).then((alive) => {
        if (alive || link.ended) return;
        link.process.kill(
          `plugin ${this.name} missed its ${this.#req.timeoutMs} ms deadline and did not respond ` +
            `within ${this.#s.stuckGraceMs} ms after it (a busy loop?); its sandbox was stopped`,
          link.cell,
        );
      }),
    );
  }

  async #discard(link: CellLink): Promise<void> {
    if (!link.ended && link.busy() && !(await link.ping(this.#s.stuckGraceMs))) {
      link.process.kill(`plugin ${this.name} was unloaded while stuck`, link.cell);
    }
    link.close();
    await this.#s.pool.release(link.process);
  }

  async #running(signal?: AbortSignal): Promise<CellLink> {
    // A process that has died but not yet told its cells: wait for it to, then restart.
    while (this.running && !this.#link!.process.alive) await abortable(this.#link!.process.exited, signal);
    if (this.running) return this.#link!;
    switch (this.#state) {
      case "failed":
        throw new CortexError("plugin_not_active", `plugin ${this.name} was stopped after repeated crashes`);
      case "stopped":
      case "starting":
        throw new CortexError("plugin_not_active", `plugin ${this.name} is not running`);
    }
    this.#restarting ??= this.#s.pool.track(this.#restart()).finally(() => (this.#restarting = undefined));
    return await abortable(this.#restarting, signal);
  }

  async #restart(): Promise<CellLink> {
    this.#state = "restarting";
    const wait = this.#crashes.restartAt - Date.now();
    if (wait > 0) await sleep(wait, this.#stopping.signal);
    let link: CellLink | undefined;
    try {
      link = (await this.#spawn()).link;
      if (this.#state !== "restarting") {
        throw new CortexError("plugin_not_active", `plugin ${this.name} was unloaded`);
      }
      this.#link = link;
      for (const hook of REPLAYED_HOOKS) {
        if (!this.#hooksDone.has(hook)) continue;
        await this.#deadline(
          link,
          link.call({ op: "hook", name: hook }),
          new CortexError(
            "hook_timeout",
            `${hook} of ${this.name} did not finish within ${this.#req.timeoutMs} ms`,
          ),
        );
      }
      this.#state = "ready";
      this.#startHeartbeat(link);
      this.#req.services.logger.info("[sandbox] restarted");
      this.#req.onStatus("active");
      return link;
    } catch (error) {
      const e = toCortexError(error, "sandbox_crashed");
      if (link) {
        if (this.#link === link) this.#link = undefined;
        await this.#discard(link);
      }
      if (this.#state !== "restarting") throw e;
      const innocent = link !== undefined && link.ended && link.guilty !== true;
      if (innocent) this.#state = "down";
      else this.#crashed(`restarting failed: ${e.message}`);
      throw new CortexError("sandbox_crashed", `plugin ${this.name} could not restart: ${e.message}`);
    }
  }

  #ended(link: CellLink, reason: string, guilty: Guilt): void {
    if (link !== this.#link) return;
    this.#stopHeartbeat();
    this.#services.dropSubscriptions();
    if (this.#state !== "ready") return; // A restart in progress counts its own failure.
    this.#link = undefined;
    void this.#s.pool.track(this.#s.pool.release(link.process));
    if (guilty === true) return this.#crashed(reason);
    if (guilty === "unknown") this.#quarantined = true;
    this.#state = "down";
    this.#req.services.logger.warn(`[sandbox] restarting: ${reason}`);
    this.#running().catch(() => {});
  }

  #crashed(reason: string): void {
    this.#quarantined = true;
    const verdict = this.#crashes.record(Date.now());
    const minutes = Math.round(this.#crashes.windowMs / 60_000);
    this.#req.services.logger.error(`[sandbox] crashed (${verdict.recent} within ${minutes} min): ${reason}`);
    if (!verdict.giveUp) {
      this.#state = "down";
      this.#req.onStatus(
        "error",
        `sandbox_crashed: ${reason}; it restarts on the next call (${verdict.recent} crash(es) within ${minutes} min)`,
      );
      return;
    }
    this.#state = "failed";
    this.#req.onCrash(
      `sandbox_crashed: ${reason}; it crashed ${verdict.recent} times within ${minutes} minutes ` +
        `and stays disabled until it is enabled again`,
      { disable: true },
    );
  }

  #startHeartbeat(link: CellLink): void {
    this.#stopHeartbeat();
    if (this.#s.heartbeatMs <= 0) return;
    // A ping still unanswered a whole interval later means the Worker's event loop is not running.
    let waiting = false;
    const timer = setInterval(() => {
      if (link.ended) return this.#stopHeartbeat();
      if (!waiting) {
        waiting = true;
        link.ping(this.#s.heartbeatMs * 4).then((alive) => (waiting = !alive));
        return;
      }
      link.process.kill(
        `plugin ${this.name} did not respond for ${this.#s.heartbeatMs} ms (a busy loop?); its sandbox was stopped`,
        link.cell,
      );
    }, this.#s.heartbeatMs);
    Deno.unrefTimer(timer);
    this.#heartbeat = timer;
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }
}
