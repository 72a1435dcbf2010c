import type { Manifest } from "../manifest/schema.ts";
import type { LoadedPlugin, PluginServices } from "./loader.ts";

/** A plugin the runtime has loaded in this process. */
export interface ActivePlugin {
  /** Its name. */
  name: string;
  /** Its manifest. */
  manifest: Manifest;
  /** Its loaded form. */
  loaded: LoadedPlugin;
  /** Its services. */
  services: PluginServices;
  /** Effective capabilities. */
  capabilities: ReadonlySet<string>;
  /** Deadline per call and hook, in ms. */
  timeoutMs: number;
  /** Undo functions for its event subscriptions. */
  unsubscribe: (() => void)[];
  /** Whether it finished activating. */
  active: boolean;
}
