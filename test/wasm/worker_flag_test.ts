import assert from "node:assert/strict";
import { join } from "node:path";

const SCRIPT = join(import.meta.dirname!, "fixtures", "install_without_flag.ts");
const EXAMPLE = join(import.meta.dirname!, "..", "..", "examples", "wasm", "echo-c");

Deno.test("without --unstable-worker-options a WASM plugin is refused with a fix, and the process lives on", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SCRIPT, EXAMPLE],
    env: { CORTEX_WORKER_OPTIONS: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `the process must not be ended by Deno (exit ${out.code}): ${stderr}`);
  const outcome = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(outcome.thrown, "sandbox_unavailable", JSON.stringify(outcome));
  assert.match(outcome.message, /--unstable-worker-options/);
});
