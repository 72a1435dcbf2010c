import { deepEqual } from "node:assert/strict";
import { CallWatchdog } from "./call_watchdog.ts";

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("a call that overruns expires; calls that answer in time do not", async () => {
  const watchdog = new CallWatchdog();
  const expired: string[] = [];
  try {
    watchdog.start(1000, () => expired.push("slow first call"));
    watchdog.stop();
    watchdog.start(20, () => expired.push("stuck call"));
    await tick(60);
    watchdog.start(1000, () => expired.push("answered call"));
    watchdog.stop();
    deepEqual(expired, ["stuck call"]);
  } finally {
    watchdog.dispose();
  }
});

Deno.test("a later call with a shorter deadline is not held to the earlier timer", async () => {
  const watchdog = new CallWatchdog();
  const expired: string[] = [];
  try {
    watchdog.start(60_000, () => expired.push("long"));
    watchdog.stop();
    watchdog.start(10, () => expired.push("short"));
    await tick(50);
    deepEqual(expired, ["short"]);
  } finally {
    watchdog.dispose();
  }
});
