/**
 * A tool call into an external module through the socket host, beside its
 * floors over the same kind of Unix socket between two Deno processes: a raw
 * NDJSON echo (the child parses and re-serializes each line) and a raw byte
 * echo (the child copies bytes). Every process is started here.
 *
 * `deno bench -A bench/module_socket_bench.ts` reports each case against the
 * NDJSON echo in the same run (groups `sequential` and `100 in flight`).
 * `deno run -A bench/module_socket_bench.ts` prints the sequential median and
 * the 100-in-flight frame rate of every path, and the module's ratios to each floor:
 * after a warm-up, rounds interleave the paths in short blocks, and each figure is
 * the median of all of a path's samples (one per call, or one per batch of 100).
 * Targets: median at most 1.3x the NDJSON floor; at least 70% of its rate.
 *
 * @module
 */
import { startModuleProcess } from "../module-abi/host/start_module_process.ts";
import type { ModuleProcess } from "../module-abi/host/types.ts";

const PAYLOAD = { text: "hello from the bench", n: 42, tags: ["a", "b"] };
const IN_FLIGHT = 100;
const CLIENT = new URL("../module-abi/client.ts", import.meta.url).href;

// The module: an echo tool written with the TypeScript SDK.
const MODULE_SOURCE = `
import { runModule } from ${JSON.stringify(CLIENT)};
await runModule({
  metadata: { id: "tool.bench", version: "1", kind: "tool", capabilities: [{ name: "echo", description: "" }] },
  handlers: { echo: (payload) => payload },
});`;

// The floors. Both children are Deno processes on the same kind of socket. The NDJSON echo
// reads each line as JSON and writes it back serialized, the least any JSON peer does; the
// byte echo copies bytes without reading them, a lower bound no protocol peer can reach.
const NDJSON_ECHO_SOURCE = `
const conn = await Deno.connect({ transport: "unix", path: Deno.env.get("SOCK") });
const buffer = new Uint8Array(65536);
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let pending = "";
while (true) {
  const n = await conn.read(buffer);
  if (n === null) break;
  pending += decoder.decode(buffer.subarray(0, n), { stream: true });
  let out = "";
  let end;
  while ((end = pending.indexOf("\\n")) !== -1) {
    out += JSON.stringify(JSON.parse(pending.slice(0, end))) + "\\n";
    pending = pending.slice(end + 1);
  }
  const bytes = encoder.encode(out);
  let at = 0;
  while (at < bytes.length) at += await conn.write(bytes.subarray(at));
}`;

const BYTE_ECHO_SOURCE = `
const conn = await Deno.connect({ transport: "unix", path: Deno.env.get("SOCK") });
const buffer = new Uint8Array(65536);
while (true) {
  const n = await conn.read(buffer);
  if (n === null) break;
  let at = 0;
  while (at < n) at += await conn.write(buffer.subarray(at, n));
}`;

/** The floor's parent end: ids on each line, answers matched by id, as a real client must. */
class RawEcho {
  #conn: Deno.UnixConn;
  #child: Deno.ChildProcess;
  #listener: Deno.Listener;
  #dir: string;
  #next = 1;
  #waiting = new Map<number, (value: unknown) => void>();
  #queue: string[] = [];
  #encoder = new TextEncoder();
  #reading: Promise<void>;

  private constructor(conn: Deno.UnixConn, child: Deno.ChildProcess, listener: Deno.Listener, dir: string) {
    this.#conn = conn;
    this.#child = child;
    this.#listener = listener;
    this.#dir = dir;
    this.#reading = this.#read();
  }

  static async start(source: string): Promise<RawEcho> {
    const dir = await tempDir();
    const path = `${dir}/raw.sock`;
    const listener = Deno.listen({ transport: "unix", path });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-config", source],
      env: { SOCK: path },
      stdout: "null",
      stderr: "inherit",
    }).spawn();
    return new RawEcho(await listener.accept(), child, listener, dir);
  }

  call(payload: unknown): Promise<unknown> {
    const id = this.#next++;
    const answer = new Promise<unknown>((resolve) => this.#waiting.set(id, resolve));
    this.#queue.push(JSON.stringify({ id, payload }) + "\n");
    if (this.#queue.length === 1) queueMicrotask(() => this.#flush());
    return answer;
  }

  async #flush() {
    const bytes = this.#encoder.encode(this.#queue.join(""));
    this.#queue = [];
    let at = 0;
    while (at < bytes.length) at += await this.#conn.write(bytes.subarray(at));
  }

  async #read() {
    const decoder = new TextDecoder();
    const buffer = new Uint8Array(65536);
    let pending = "";
    try {
      while (true) {
        const n = await this.#conn.read(buffer);
        if (n === null) break;
        pending += decoder.decode(buffer.subarray(0, n), { stream: true });
        let end;
        while ((end = pending.indexOf("\n")) !== -1) {
          const message = JSON.parse(pending.slice(0, end));
          pending = pending.slice(end + 1);
          this.#waiting.get(message.id)?.(message.payload);
          this.#waiting.delete(message.id);
        }
      }
    } catch {
      // Closed.
    }
  }

  async close() {
    this.#conn.close();
    await this.#reading;
    await this.#child.status;
    this.#listener.close();
    await Deno.remove(this.#dir, { recursive: true });
  }
}

async function startModule(): Promise<{ mod: ModuleProcess; close: () => Promise<void> }> {
  const dir = await tempDir();
  const mod = await startModuleProcess({
    command: [Deno.execPath(), "eval", "--no-config", MODULE_SOURCE],
    cwd: dir,
    socketDir: dir,
    instance: "bench",
    env: { DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno` },
  }, { onLog: (line) => console.error(line) });
  return {
    mod,
    close: async () => {
      await mod.stop();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const tempDirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cortex-module-bench" });
  tempDirs.push(dir);
  return dir;
}

const inFlight = (call: () => Promise<unknown>) => Promise.all(Array.from({ length: IN_FLIGHT }, call));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// Each session starts all three paths afresh, so where the scheduler happens to put one set of
// processes (on a 2-core machine that alone moves a floor by half) counts once, not always.
// In a session, after a warm-up, rounds interleave the paths in short blocks, each round in
// another order, so a change in machine load falls on every path alike. Every call (or every
// batch) is one sample; a path's figure is the median of all its samples from all sessions,
// and the ratios are ratios of those medians.
const SESSIONS = 5;
const ROUNDS = 8;
const CALLS_PER_BLOCK = 200;
const BATCHES_PER_BLOCK = 10;

type Paths = Record<string, () => Promise<unknown>>;

async function timeCalls(call: () => Promise<unknown>, count: number, into: number[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await call();
    into.push((performance.now() - start) * 1000);
  }
}

async function timeBatches(call: () => Promise<unknown>, count: number, into: number[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await inFlight(call);
    into.push((performance.now() - start) * 1000);
  }
}

/** One session's samples, added to `calls` and `batches` (µs, by path name). */
async function measure(
  paths: Paths,
  calls: Record<string, number[]>,
  batches: Record<string, number[]>,
): Promise<void> {
  const names = Object.keys(paths);
  for (const name of names) {
    await timeCalls(paths[name], 2000, []);
    await timeBatches(paths[name], 150, []);
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) await timeCalls(paths[name], CALLS_PER_BLOCK, calls[name] ??= []);
    for (const name of order) await timeBatches(paths[name], BATCHES_PER_BLOCK, batches[name] ??= []);
  }
}

/** Starts the three paths: the two floors and the module. */
async function openPaths(): Promise<{ paths: Paths; close: () => Promise<void> }> {
  const ndjson = await RawEcho.start(NDJSON_ECHO_SOURCE);
  const bytes = await RawEcho.start(BYTE_ECHO_SOURCE);
  const module = await startModule();
  return {
    paths: {
      ndjson: () => ndjson.call(PAYLOAD),
      bytes: () => bytes.call(PAYLOAD),
      module: () => module.mod.call("echo", PAYLOAD),
    },
    close: async () => {
      await module.close();
      await ndjson.close();
      await bytes.close();
    },
  };
}

if (import.meta.main) {
  const calls: Record<string, number[]> = {};
  const batches: Record<string, number[]> = {};
  const perSession: { sequential: number; rate: number }[] = [];
  for (let session = 0; session < SESSIONS; session++) {
    const { paths, close } = await openPaths();
    const sessionCalls: Record<string, number[]> = {};
    const sessionBatches: Record<string, number[]> = {};
    await measure(paths, sessionCalls, sessionBatches);
    await close();
    for (const name of Object.keys(paths)) {
      (calls[name] ??= []).push(...sessionCalls[name]);
      (batches[name] ??= []).push(...sessionBatches[name]);
    }
    perSession.push({
      sequential: median(sessionCalls.module) / median(sessionCalls.ndjson),
      rate: median(sessionBatches.ndjson) / median(sessionBatches.module),
    });
  }
  const m = (name: string) => median(calls[name]);
  const r = (name: string) => IN_FLIGHT / (median(batches[name]) / 1e6);
  const range = (values: number[], format: (n: number) => string) =>
    `${format(Math.min(...values))}..${format(Math.max(...values))}`;
  const times = (n: number) => `${n.toFixed(2)}x`;
  const percent = (n: number) => `${(n * 100).toFixed(0)}%`;
  console.log(`sequential median (us), ${calls.module.length} calls per path in ${SESSIONS} sessions:`);
  console.log(
    `  raw NDJSON echo ${m("ndjson").toFixed(1)}   raw byte echo ${m("bytes").toFixed(1)}   module ${
      m("module").toFixed(1)
    }`,
  );
  console.log(
    `  module / NDJSON echo ${times(m("module") / m("ndjson"))} (sessions ${
      range(perSession.map((s) => s.sequential), times)
    })   module / byte echo ${times(m("module") / m("bytes"))}   (target <= 1.3x)`,
  );
  console.log(`${IN_FLIGHT} in flight (frames/s, from the median of ${batches.module.length} batches):`);
  console.log(
    `  raw NDJSON echo ${r("ndjson").toFixed(0)}   raw byte echo ${r("bytes").toFixed(0)}   module ${
      r("module").toFixed(0)
    }`,
  );
  console.log(
    `  module / NDJSON echo ${percent(r("module") / r("ndjson"))} (sessions ${
      range(perSession.map((s) => s.rate), percent)
    })   module / byte echo ${percent(r("module") / r("bytes"))}   (target >= 70%)`,
  );
} else {
  const { paths } = await openPaths();
  const cases: [string, () => Promise<unknown>, boolean][] = [
    ["raw NDJSON echo", paths.ndjson, true],
    ["raw byte echo", paths.bytes, false],
    ["module tool call", paths.module, false],
  ];
  for (const [name, call, baseline] of cases) {
    Deno.bench({ name, group: "sequential", baseline, fn: async () => void await call() });
    Deno.bench({
      name: `${name} x${IN_FLIGHT}`,
      group: `${IN_FLIGHT} in flight`,
      baseline,
      fn: async () => void await inFlight(call),
    });
  }
  // deno bench has no teardown hook: the children exit when this process closes their
  // sockets, and the temporary directories go when the module unloads.
  globalThis.addEventListener("unload", () => {
    for (const dir of tempDirs) Deno.removeSync(dir, { recursive: true });
  });
}
