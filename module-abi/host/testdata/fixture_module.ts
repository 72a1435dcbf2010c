/**
 * A module that misbehaves on purpose, for the host tests. It speaks the wire
 * with raw `Deno.connect` so it can send anything. `MODE` picks the behaviour;
 * `RECORD` names a file where it appends every frame the host sent it; `COUNTER`
 * names a file counting its starts, so `*_first` modes misbehave only on the first start.
 *
 * @module
 */
import { encodeFrame } from "../../wire/encode.ts";
import type { ModuleFrame } from "../../wire/frame.ts";
import { FrameReader } from "../../wire/reader.ts";

const mode = Deno.env.get("MODE") ?? "good";
const record = Deno.env.get("RECORD");
const counterFile = Deno.env.get("COUNTER");
let start = 1;
if (counterFile) {
  start = Number(await Deno.readTextFile(counterFile).catch(() => "0")) + 1;
  await Deno.writeTextFile(counterFile, String(start));
}
const first = start === 1;
const misbehave = (name: string) => mode === name || (mode === `${name}_first` && first);

if (misbehave("never_connect")) await new Promise(() => setInterval(() => {}, 1000));

const conn = await Deno.connect({ transport: "unix", path: Deno.env.get("CORTEXFS_MODULE_SOCKET")! });
const encoder = new TextEncoder();

let writing = Promise.resolve();

// Writes go through one chain so frames never interleave, while reading goes on meanwhile.
function writeAll(bytes: Uint8Array): Promise<void> {
  writing = writing.then(async () => {
    if (mode === "byte_at_a_time") {
      for (const byte of bytes) await conn.write(Uint8Array.of(byte));
      return;
    }
    let at = 0;
    while (at < bytes.length) at += await conn.write(bytes.subarray(at));
  }).catch(() => {});
  return writing;
}

const note = (line: string) => record && Deno.writeTextFileSync(record, line + "\n", { append: true });

const send = (frame: ModuleFrame) => writeAll(encodeFrame(frame));

async function onFrame(frame: ModuleFrame): Promise<void> {
  note(JSON.stringify(frame));
  switch (frame.type) {
    case "hello":
      if (misbehave("no_ready")) return;
      if (misbehave("call_before_ready")) {
        return send({ type: "event", name: "early", payload: null });
      }
      return send({
        type: "ready",
        metadata: { id: "fixture", version: "1", kind: "tool", capabilities: [] },
      });
    case "lifecycle":
      if (frame.operation === "init" && misbehave("hang_init")) return;
      if (frame.operation === "init" && misbehave("fail_init")) {
        return send({ type: "error", request_id: frame.request_id, code: "init_broke", message: "no" });
      }
      return send({ type: "result", request_id: frame.request_id, payload: null });
    case "call":
      if (misbehave("exit_on_call")) Deno.exit(3);
      if (misbehave("hang_on_call")) return;
      if (frame.payload === "slow") await new Promise((resolve) => setTimeout(resolve, 300));
      if (misbehave("garbage")) return writeAll(encoder.encode("this is not json\n"));
      if (misbehave("oversized")) {
        const big = new Uint8Array(1_572_864).fill(0x78);
        return writeAll(big);
      }
      if (misbehave("unknown_answer")) {
        return send({ type: "result", request_id: "never-asked", payload: null });
      }
      if (frame.method === "pid") {
        return send({ type: "result", request_id: frame.request_id, payload: Deno.pid });
      }
      return send({ type: "result", request_id: frame.request_id, payload: frame.payload });
  }
}

const reader = new FrameReader();
const buffer = new Uint8Array(65_536);
try {
  while (true) {
    const n = await conn.read(buffer);
    if (n === null) break;
    for (const result of reader.push(buffer.subarray(0, n))) {
      if (!result.ok) {
        note(`malformed ${result.error.code}`);
        continue;
      }
      void onFrame(result.frame);
    }
  }
} catch {
  // The host closed the connection.
}
note("closed");
// A module that ignores the end of its connection keeps running until it is killed.
if (misbehave("linger")) setInterval(() => {}, 1000);
