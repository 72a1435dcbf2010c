import { defaultLoaders } from "../loaders/mod.ts";
import { defaultHome } from "../runtime/home.ts";
import { Runtime } from "../runtime/runtime.ts";

/** Opens the runtime the CLI works on: `CORTEX_HOME` or `~/.cortex`, with every loader. */
export async function openRuntime(
  options: { echoLog?: (line: string) => void; daemonPorts?: number[] } = {},
): Promise<Runtime> {
  const home = defaultHome();
  return await Runtime.open({
    home,
    loaders: defaultLoaders({ home, daemonPorts: options.daemonPorts }),
    echoLog: options.echoLog,
  });
}

/** Opens the runtime, runs `fn` with it, and closes it whatever happens. */
export async function withRuntime<T>(
  fn: (runtime: Runtime) => Promise<T> | T,
  options: { echoLog?: (line: string) => void } = {},
): Promise<T> {
  const runtime = await openRuntime(options);
  try {
    return await fn(runtime);
  } finally {
    await runtime.close();
  }
}
