import { equal } from "node:assert/strict";
import { isPublicAddress, isPublicHost } from "./address_policy.ts";

Deno.test("loopback, private, link-local and mapped addresses are not public", () => {
  const blocked = [
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "[::1]",
    "fe80::1",
    "fd00::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "64:ff9b::a00:1",
  ];
  for (const address of blocked) equal(isPublicAddress(address), false, address);
  for (const address of ["93.184.216.34", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"]) {
    equal(isPublicAddress(address), true, address);
  }
  equal(isPublicAddress("example.com"), undefined);
});

Deno.test("the default host policy refuses localhost names without asking DNS", async () => {
  equal(await isPublicHost(new URL("http://localhost:8080/")), false);
  equal(await isPublicHost(new URL("http://api.localhost/")), false);
  equal(await isPublicHost(new URL("http://[::1]:80/")), false);
  equal(await isPublicHost(new URL("http://127.0.0.1/")), false);
});
