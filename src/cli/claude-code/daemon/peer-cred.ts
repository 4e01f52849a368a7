// Who is on the other end of a Unix socket connection: the kernel's answer (SO_PEERCRED), which no
// client can forge. Node has no API for it, so `npm run build` compiles a small N-API addon
// (src/cli/claude-code/native/peer-cred.c → dist/native/peer-cred.node). It needs the connection's
// file descriptor, which only a net.Socket's internal handle holds (`_handle.fd`): that one private
// access lives here, checked when the daemon starts (peerCredSupport), so a Node that changes it
// makes the daemon refuse to start, never accept peers unchecked.
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { nativeFile } from './native-files.js';

export interface PeerCred {
  readonly pid: number;
  readonly uid: number;
  readonly gid: number;
}

interface Addon {
  peerCred(fd: number): PeerCred;
}

let loaded: Addon | string | undefined;

function load(): Addon | string {
  if (loaded !== undefined) return loaded;
  const file = nativeFile('peer-cred.node');
  if (file === undefined) {
    loaded =
      "dist/native/peer-cred.node was not built (`npm run build` needs a C compiler and Node's headers)";
    return loaded;
  }
  try {
    loaded = createRequire(import.meta.url)(file) as Addon;
  } catch (err) {
    loaded = `dist/native/peer-cred.node does not load (${(err as Error).message.split('\n')[0]})`;
  }
  return loaded;
}

/** The descriptor of a connected socket, or undefined (the private field moved). */
function fdOf(socket: Socket): number | undefined {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}

/** Why peers cannot be checked here, or undefined when they can: the addon loads, and `probe` (a connected socket) has a descriptor. */
export function peerCredProblem(probe?: Socket): string | undefined {
  const addon = load();
  if (typeof addon === 'string') return addon;
  if (probe !== undefined && fdOf(probe) === undefined)
    return 'this Node keeps a socket’s descriptor elsewhere (net.Socket _handle.fd): peers cannot be checked';
  return undefined;
}

/** The credentials of the process on the other end, or why they cannot be had. */
export function peerCred(socket: Socket): PeerCred | string {
  const addon = load();
  if (typeof addon === 'string') return addon;
  const fd = fdOf(socket);
  if (fd === undefined) return 'no descriptor for the connection';
  try {
    return addon.peerCred(fd);
  } catch (err) {
    return `SO_PEERCRED: ${(err as Error).message}`;
  }
}
