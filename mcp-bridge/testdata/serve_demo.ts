/**
 * Test fixture: serves the demo source over stdio, as `cortex mcp serve` would.
 *
 * @module
 */
import { serveMcpStdio } from "../server/serve_stdio.ts";
import { demoSource } from "./demo_source.ts";

const served = await serveMcpStdio(demoSource(), { name: "cortex-demo", version: "0.0.1" });
await served.done;
