import { deepEqual, equal, ok } from "node:assert/strict";
import { CortexError } from "../runtime/errors.ts";
import { type ModuleClient, runModule } from "./client.ts";
import { startModuleProcess } from "./host/start_module_process.ts";
import { encodeFrame } from "./wire/encode.ts";
import type { ModuleFrame } from "./wire/frame.ts";
import { FrameReader } from "./wire/reader.ts";

const metadata = {
  id: "tool.test",
  version: "1.0.0",
  kind: "tool" as const,
  capabilities: [{ name: "add", description: "adds two numbers" }],
};

/** A raw host end: one accepted connection, frames in and out, bytes when needed. */
class RawHost {
  #reader = new FrameReader();
  #queue: (ModuleFrame | string)[] = [];
  #waiters: ((item: ModuleFrame | string) => void)[] = [];
  #buffer = new Uint8Array(65_536);
  #ended = false;
  constructor(readonly conn: Deno.UnixConn) {
    this.#pump();
  }
  async #pump() {
    try {
      while (true) {
        const n = await this.conn.read(this.#buffer);
        if (n === null) break;
        for (const r of this.#reader.push(this.#buffer.subarray(0, n))) {
          this.#deliver(r.ok ? r.frame : `malformed ${r.error.code}`);
        }
      }
    } catch {
      // Closed.
    }
    this.#deliver("eof");
  }
  #deliver(item: ModuleFrame | string) {
    if (item === "eof") this.#ended = true;
    const waiter = this.#waiters.shift();
    if (waiter) waiter(item);
    else this.#queue.push(item);
  }
  next(): Promise<ModuleFrame | string> {
    const item = this.#queue.shift();
    if (item !== undefined) return Promise.resolve(item);
    // End of stream stays readable, so every later reader sees it too.
    if (this.#ended) return Promise.resolve("eof");
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
  async send(frame: ModuleFrame | Uint8Array, byteAtATime = false) {
    const bytes = frame instanceof Uint8Array ? frame : encodeFrame(frame);
    if (!byteAtATime) return void (await this.conn.write(bytes));
    for (const byte of bytes) await this.conn.write(Uint8Array.of(byte));
  }
}

async function session(
  run: (host: RawHost, client: ModuleClient) => Promise<void>,
  options: { byteAtATime?: boolean; log?: string[] } = {},
) {
  const dir = await Deno.makeTempDir({ prefix: "mabi" });
  const path = `${dir}/c.sock`;
  const listener = Deno.listen({ transport: "unix", path });
  const log = options.log ?? [];
  try {
    const started = runModule({
      metadata,
      socketPath: path,
      handlers: {
        add: (p) => (p as number[])[0] + (p as number[])[1],
        boom: () => {
          throw new Error("password=hunter2");
        },
        deny: () => {
          throw new CortexError("permission_denied", "not for you");
        },
        ask: (p, ctx) => ctx.callHost("host.echo", p),
      },
      onLifecycle: (operation) => void log.push(operation),
      onHostError: (code) => void log.push(`host error ${code}`),
    });
    const host = new RawHost(await listener.accept());
    await host.send(
      { type: "hello", abi: "cortexfs.module.socket/v1", instance: "i-1" },
      options.byteAtATime,
    );
    const ready = await host.next();
    deepEqual(ready, { type: "ready", metadata });
    const client = await started;
    equal(client.instance, "i-1");
    await run(host, client);
    client.close();
    await client.closed;
    while ((await host.next()) !== "eof");
    host.conn.close();
  } finally {
    listener.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const lifecycle = (id: string, operation: "init" | "start" | "stop" | "shutdown"): ModuleFrame => ({
  type: "lifecycle",
  request_id: id,
  operation,
});

Deno.test("client: answers hello written one byte at a time, then follows the lifecycle", async () => {
  const log: string[] = [];
  await session(async (host, client) => {
    await host.send(lifecycle("l1", "start"));
    deepEqual(await host.next(), {
      type: "error",
      request_id: "l1",
      code: "invalid_state",
      message: "cannot start: the module is registered",
    });
    for (const [id, op] of [["l2", "init"], ["l3", "start"]] as const) {
      await host.send(lifecycle(id, op));
      deepEqual(await host.next(), { type: "result", request_id: id, payload: null });
    }
    equal(client.state, "running");
    deepEqual(log, ["init", "start"]);
  }, { byteAtATime: true, log });
});

Deno.test("client: answers calls, keeps coded errors, hides uncoded ones", async () => {
  await session(async (host) => {
    const call = (id: string, method: string, payload: unknown): ModuleFrame => ({
      type: "call",
      request_id: id,
      method,
      payload,
    });
    await host.send(call("c0", "add", [1, 2]));
    equal(((await host.next()) as { code: string }).code, "module_not_running");
    await host.send(lifecycle("l1", "init"));
    await host.send(lifecycle("l2", "start"));
    await host.next();
    await host.next();
    await host.send(call("c1", "add", [1, 2]));
    deepEqual(await host.next(), { type: "result", request_id: "c1", payload: 3 });
    await host.send(call("c2", "nope", null));
    equal(((await host.next()) as { code: string }).code, "unknown_method");
    await host.send(call("c3", "deny", null));
    deepEqual(await host.next(), {
      type: "error",
      request_id: "c3",
      code: "permission_denied",
      message: "not for you",
    });
    await host.send(call("c4", "boom", null));
    deepEqual(await host.next(), {
      type: "error",
      request_id: "c4",
      code: "handler_failed",
      message: "the handler failed",
    });
  });
});

Deno.test("client: calls into the host, emits events, and closes after shutdown", async () => {
  const log: string[] = [];
  await session(async (host, client) => {
    for (const [id, op] of [["l1", "init"], ["l2", "start"]] as const) {
      await host.send(lifecycle(id, op));
      await host.next();
    }
    client.emit("hello", { n: 1 });
    deepEqual(await host.next(), { type: "event", name: "hello", payload: { n: 1 } });
    await host.send({ type: "call", request_id: "c1", method: "ask", payload: "ping" });
    const asked = (await host.next()) as { type: string; request_id: string; method: string };
    deepEqual([asked.type, asked.method], ["call", "host.echo"]);
    await host.send({ type: "result", request_id: asked.request_id, payload: "pong" });
    deepEqual(await host.next(), { type: "result", request_id: "c1", payload: "pong" });
    const failing = client.callHost("host.fail", null).catch((e: CortexError) => e) as Promise<CortexError>;
    const second = (await host.next()) as { request_id: string };
    await host.send({
      type: "error",
      request_id: second.request_id,
      code: "tool_not_found",
      message: "none",
    });
    equal((await failing).code, "tool_not_found");
    await host.send({ type: "error", code: "something", message: "note" });
    for (const [id, op] of [["l3", "stop"], ["l4", "shutdown"]] as const) {
      await host.send(lifecycle(id, op));
      await host.next();
    }
    equal(await host.next(), "eof");
    await client.closed;
    equal(client.state, "shutdown");
    deepEqual(log, ["init", "start", "host error something", "stop", "shutdown"]);
  }, { log });
});

Deno.test("client: garbage from the host gets an error frame and a closed connection", async () => {
  await session(async (host, client) => {
    await host.send(new TextEncoder().encode("{not json}\n"));
    const answer = (await host.next()) as { type: string; code: string };
    deepEqual([answer.type, answer.code], ["error", "frame_not_json"]);
    equal(await host.next(), "eof");
    await client.closed;
  });
});

const node = await new Deno.Command("node", { args: ["--version"], stdout: "null", stderr: "null" })
  .output().then((o) => o.success).catch(() => false);

Deno.test({
  name: "client: the ticker example runs unchanged on Node once bundled",
  ignore: !node,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "mabi" });
    try {
      const entry = new URL("../examples/modules/ticker-channel-ts/module.ts", import.meta.url);
      const bundled = await new Deno.Command(Deno.execPath(), {
        args: ["bundle", "--quiet", "--platform=deno", "-o", `${dir}/module.mjs`, entry.pathname],
        stdout: "null",
        stderr: "piped",
      }).output();
      ok(bundled.success, new TextDecoder().decode(bundled.stderr));
      const events: unknown[] = [];
      const mod = await startModuleProcess(
        { command: ["node", "module.mjs"], cwd: dir, socketDir: `${dir}/s`, instance: "node-1" },
        { onEvent: (_name, payload) => events.push(payload), onCall: (method) => method },
      );
      deepEqual(await mod.call("tick", { count: 2 }), { published: 2, total: 2 });
      deepEqual(events, [{ n: 1 }, { n: 2 }]);
      equal(await mod.call("relay", { method: "runtime.ping" }), "runtime.ping");
      const exit = await mod.stop();
      deepEqual([exit.reason, exit.killed], ["stopped", false]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
