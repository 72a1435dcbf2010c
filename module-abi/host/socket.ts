/**
 * The runtime-owned listening socket: an owner-only directory (0700) and an
 * owner-only socket file (0600) inside it.
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";

// sockaddr_un holds 108 bytes on Linux, one of which is the terminating NUL.
const MAX_SOCKET_PATH_BYTES = 107;

/** A listening Unix socket and its path. */
export interface OwnedSocket {
  /** The socket's path, given to the child in `CORTEXFS_MODULE_SOCKET`. */
  readonly path: string;
  /** The listener; accept one connection, then close it. */
  readonly listener: Deno.Listener<Deno.UnixConn, Deno.UnixAddr>;
  /** Stops listening and removes the socket file; safe to call more than once. */
  close(): void;
}

/**
 * Creates `socketDir` if needed, makes it owner-only, and listens on a fresh
 * socket named after `instance` inside it. Throws `socket_path_too_long` when
 * the path does not fit a Unix socket address.
 *
 * @example
 * ```ts ignore
 * import { listenOwnerOnly } from "./socket.ts";
 * const socket = await listenOwnerOnly("/tmp/cortex-sockets", "agent-1");
 * const conn = await socket.listener.accept();
 * socket.close(); // exactly one connection
 * conn.close();
 * ```
 */
export async function listenOwnerOnly(
  socketDir: string,
  instance: string,
): Promise<OwnedSocket> {
  // A random suffix so a restart never meets its predecessor's socket file.
  const path = `${socketDir}/${instance}.${crypto.randomUUID().slice(0, 8)}.sock`;
  if (new TextEncoder().encode(path).length > MAX_SOCKET_PATH_BYTES) {
    throw new CortexError(
      "socket_path_too_long",
      `the socket path would be longer than ${MAX_SOCKET_PATH_BYTES} bytes; use a shorter socketDir`,
    );
  }
  await Deno.mkdir(socketDir, { recursive: true, mode: 0o700 });
  // mkdir leaves an existing directory's mode alone, and the umask can narrow a new one.
  await Deno.chmod(socketDir, 0o700);
  const listener = Deno.listen({ transport: "unix", path });
  try {
    await Deno.chmod(path, 0o600);
  } catch (error) {
    listener.close();
    throw error;
  }
  const close = () => {
    try {
      listener.close();
    } catch {
      // Closed already.
    }
    try {
      Deno.removeSync(path);
    } catch {
      // Removed already.
    }
  };
  return { path, listener, close };
}
