import assert from "node:assert/strict";
import { CrashHistory } from "./crash_history.ts";

Deno.test("CrashHistory: the first restart is immediate, later ones wait longer, the third crash gives up", () => {
  const h = new CrashHistory({ maxCrashes: 3, windowMs: 1000, backoffMs: 100 });
  assert.deepEqual(h.record(0), { giveUp: false, recent: 1, restartAt: 0 });
  assert.deepEqual(h.record(10), { giveUp: false, recent: 2, restartAt: 110 });
  assert.deepEqual(h.record(20), { giveUp: true, recent: 3, restartAt: 220 });
});

Deno.test("CrashHistory: crashes older than the window are forgotten", () => {
  const h = new CrashHistory({ maxCrashes: 3, windowMs: 1000, backoffMs: 100 });
  h.record(0);
  h.record(10);
  assert.deepEqual(h.record(2000), { giveUp: false, recent: 1, restartAt: 2000 });
});
