// One connection to the daemon (wire.ts): the peer's uid checked by the kernel's word (SO_PEERCRED),
// then ONE request judged and answered: the caller's flags, working directory and environment must
// name the daemon's own configuration, its digests must be of the daemon's current manifest and
// match it. Anything wrong is an 'F' frame: the client then runs the adapter in its own process,
// which is always right, only slower. Never a verdict the caller's own process would not give.
import type { Socket } from 'node:net';
import { type LoadRead, readsMismatch } from '../../../config/read-log.js';
import type { CliAnswer } from '../../one-dispatch.js';
import type { AdapterFlags } from '../flags.js';
import { peerCred } from './peer-cred.js';
import {
  answerFrame,
  FrameReader,
  fallbackFrame,
  jsonFrame,
  MAX_REQUEST_BYTES,
  parseRequest,
  type Request,
} from './wire.js';

/** What a connection needs from the daemon. */
export interface ConnectionHost {
  /** The caller's flags (paths absolute) when the daemon answers for it, else why not. */
  accept(request: Request): AdapterFlags | string;
  /** The manifest in force: its token and the reads it lists (the executor's and the daemon's code). */
  manifest(): { readonly token: string; readonly reads: readonly LoadRead[] };
  answer(flags: AdapterFlags, request: Request): Promise<CliAnswer>;
  /** The caller's digests did not match: reload (the daemon throttles it). */
  stale(why: string): void;
  status(): unknown;
  stop(): void;
  log(level: 'info' | 'warn', msg: string, fields?: Record<string, unknown>): void;
  /** Counts the call's outcome (status). */
  count(outcome: 'answered' | 'fellBack'): void;
}

/** A connection that sends nothing for this long is dropped (a client sends at once). */
const IDLE_CONNECTION_MS = 30_000;

export function serveConnection(socket: Socket, host: ConnectionHost): void {
  const cred = peerCred(socket);
  if (typeof cred === 'string' || cred.uid !== process.getuid?.()) {
    host.log('warn', 'refused a peer', typeof cred === 'string' ? { why: cred } : { peer: cred });
    socket.destroy();
    return;
  }
  const reader = new FrameReader();
  let done = false;
  const finish = (bytes: Buffer, then?: () => void) => {
    done = true;
    socket.end(bytes, then);
  };
  const fallBack = (why: string, then?: () => void) => {
    host.count('fellBack');
    finish(fallbackFrame(why), then);
  };
  socket.setTimeout(IDLE_CONNECTION_MS, () => socket.destroy());
  socket.on('error', () => {}); // a client that went away: nothing to answer
  socket.on('data', (chunk: Buffer) => {
    if (done) return;
    reader.push(chunk);
    let payload: Buffer | undefined;
    let request: Request;
    try {
      payload = reader.next(MAX_REQUEST_BYTES);
      if (payload === undefined) return;
      request = parseRequest(payload);
    } catch (err) {
      return fallBack(`protocol: ${(err as Error).message}`);
    }
    if (request.kind === 'status') return finish(jsonFrame(host.status()));
    if (request.kind === 'stop') return finish(jsonFrame(host.status()), () => host.stop());
    const flags = host.accept(request);
    if (typeof flags === 'string') return fallBack(flags);
    const { token, reads } = host.manifest();
    if (request.token !== token)
      return fallBack('the daemon’s configuration changed since its list of files was read: it reloaded');
    const changed = readsMismatch(reads, request.digests);
    // The answer first: stale() may stop the daemon (its own code changed).
    if (changed !== undefined) return fallBack(changed, () => host.stale(changed));
    host.answer(flags, request).then(
      (a) => {
        host.count('answered');
        finish(answerFrame(a.code, a.stdout, a.stderr ?? ''));
      },
      (err: unknown) => fallBack(`internal error: ${(err as Error).message}`),
    );
  });
}
