import { expectPositionals } from "../args.ts";
import { defineCommand } from "../command.ts";
import { openRuntime } from "../open_runtime.ts";
import { EXIT } from "../output.ts";

async function readFrom(path: string, offset: number): Promise<{ text: string; size: number }> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { text: "", size: 0 };
    throw error;
  }
  try {
    const size = (await file.stat()).size;
    if (size < offset) offset = 0; // rotated
    await file.seek(offset, Deno.SeekMode.Start);
    const buf = new Uint8Array(size - offset);
    let read = 0;
    while (read < buf.length) {
      const n = await file.read(buf.subarray(read));
      if (n === null) break;
      read += n;
    }
    return { text: new TextDecoder().decode(buf.subarray(0, read)), size: offset + read };
  } finally {
    file.close();
  }
}

/** `cortex plugins logs <name> [--follow]` */
export const logsCommand = defineCommand({
  usage: "cortex plugins logs <name> [--follow] [--json]",
  flags: { follow: { type: "boolean", short: "f" } },
  async run(input) {
    const [name] = expectPositionals(input.args, ["name"]);
    const runtime = await openRuntime();
    let path: string;
    try {
      path = runtime.logPath(name);
    } finally {
      await runtime.close();
    }
    let { text, size } = await readFrom(path, 0);
    if (input.json && !input.args.flags.follow) {
      input.io.out(JSON.stringify({ name, lines: text.split("\n").filter((l) => l !== "") }));
      return EXIT.ok;
    }
    if (text) input.io.out(text.replace(/\n$/, ""));
    if (!input.args.flags.follow) return EXIT.ok;
    const stop = new Promise<void>((resolve) => Deno.addSignalListener("SIGINT", () => resolve()));
    let stopped = false;
    stop.then(() => (stopped = true));
    while (!stopped) {
      await new Promise((r) => setTimeout(r, 250));
      ({ text, size } = await readFrom(path, size));
      if (text) input.io.out(text.replace(/\n$/, ""));
    }
    return EXIT.ok;
  },
});
