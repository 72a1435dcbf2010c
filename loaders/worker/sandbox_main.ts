/**
 * The main thread of a sandbox process (`deno run` with only the permissions
 * its plugins need). It connects to the host's control socket and, when the
 * host asks, starts one permission-restricted Worker per plugin ("cell") or
 * stops one. It never runs plugin code and carries none of a plugin's
 * messages: each Worker connects to its own socket, and the host talks to it
 * directly.
 *
 * What it reports: a Worker that failed (its error event, which would
 * otherwise end this whole process and every other cell in it), and a Worker
 * that posts messages here, which no honest Worker does (more than a few and
 * it is stopped as a flood). It answers the host's pings, so the host can
 * tell a Worker that ended on its own from a process that is dying.
 *
 * Started by `spawn_sandbox.ts` as `deno run <flags> sandbox_main.ts <control socket> <nonce>`.
 *
 * @module
 */
import { type ByteReader, LineWriter, readLines } from "./_lines.ts";
import { FloodMeter } from "./flood_meter.ts";

interface SpawnFrame {
  t: "spawn";
  cell: number;
  permissions: Deno.PermissionOptionsObject;
  init: Record<string, unknown> & { pluginId: string };
}

type ControlFrame = SpawnFrame | { t: "stop"; cell: number } | { t: "ping"; id: number };

interface Cell {
  worker: Worker;
  meter: FloodMeter;
}

const SHIM_URL = new URL("./worker_shim.ts", import.meta.url);
const [socketPath, nonce] = Deno.args;
const conn = await Deno.connect({ transport: "unix", path: socketPath });
const out = new LineWriter(conn);
const cells = new Map<number, Cell>();

function send(frame: Record<string, unknown>): void {
  out.write(JSON.stringify(frame));
}

function stop(id: number): void {
  const cell = cells.get(id);
  if (!cell) return;
  cells.delete(id);
  cell.worker.terminate();
}

function spawn(frame: SpawnFrame): void {
  const id = frame.cell;
  stop(id);
  let worker: Worker;
  try {
    worker = new Worker(SHIM_URL, {
      type: "module",
      name: `cortex:${frame.init.pluginId}`,
      deno: { permissions: frame.permissions },
    });
  } catch (error) {
    send({ t: "error", cell: id, message: `cannot start the Worker: ${(error as Error)?.message ?? error}` });
    return;
  }
  // An honest Worker never posts to this thread; a few stray posts are tolerated, a stream is a flood.
  const cell: Cell = { worker, meter: new FloodMeter() };
  cells.set(id, cell);
  worker.onmessage = () => {
    if (cells.get(id) !== cell || cell.meter.admit()) return;
    stop(id);
    send({ t: "flood", cell: id });
  };
  worker.onerror = (event) => {
    // Unhandled, a Worker's error would end this whole process and every other cell in it.
    event.preventDefault();
    if (cells.get(id) !== cell) return;
    stop(id);
    send({ t: "error", cell: id, message: String(event.message ?? "the Worker failed") });
  };
  worker.postMessage({ t: "init", ...frame.init });
}

function onLine(line: string): void {
  let frame: ControlFrame;
  try {
    frame = JSON.parse(line) as ControlFrame;
  } catch {
    return;
  }
  if (frame.t === "spawn") spawn(frame);
  else if (frame.t === "stop") stop(frame.cell);
  else if (frame.t === "ping") send({ t: "pong", id: frame.id });
}

send({ t: "hello", nonce, pid: Deno.pid });
await readLines(conn as ByteReader, onLine, { maxChars: Number.MAX_SAFE_INTEGER, onOversized: () => {} });
// The host closed the socket: nothing may outlive it.
Deno.exit(0);
