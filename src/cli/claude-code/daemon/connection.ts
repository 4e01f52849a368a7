// One connection to the daemon (wire.ts): the peer's uid checked by the kernel's word (SO_PEERCRED),
// the HELLO judged (the caller's flags, working directory and environment must name the daemon's own
// configuration), the list of what its load read sent, the caller's digests compared, and the call
// answered. Anything wrong is an 'F' frame: the client then runs the adapter in its own process,
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
  type Hello,
  jsonFrame,
  MAX_CALL_BYTES,
  MAX_HELLO_BYTES,
  parseCall,
  parseHello,
  readsFrame,
} from './wire.js';

/** What a connection needs from the daemon. */
export interface ConnectionHost {
  /** The caller's flags (paths absolute) when the daemon answers for it, else why not. */
  accept(hello: Hello): AdapterFlags | string;
  /** What the configuration in force was loaded from (the executor's reads and the daemon's code). */
  reads(): readonly LoadRead[];
  answer(
    flags: AdapterFlags,
    hello: Hello,
    input: Buffer,
    deadlineMs: number | undefined,
  ): Promise<CliAnswer>;
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
  const uid = process.getuid?.();
  const cred = peerCred(socket);
  if (typeof cred === 'string' || cred.uid !== uid) {
    host.log('warn', 'refused a peer', typeof cred === 'string' ? { why: cred } : { peer: cred });
    socket.destroy();
    return;
  }
  const reader = new FrameReader();
  let stage: 'hello' | 'call' | 'done' = 'hello';
  let hello: Hello | undefined;
  let flags: AdapterFlags | undefined;
  let reads: readonly LoadRead[] = [];
  const finish = (bytes: Buffer, then?: () => void) => {
    stage = 'done';
    socket.end(bytes, then);
  };
  const fallBack = (why: string, then?: () => void) => {
    host.count('fellBack');
    finish(fallbackFrame(why), then);
  };
  socket.setTimeout(IDLE_CONNECTION_MS, () => socket.destroy());
  socket.on('error', () => {}); // a client that went away: nothing to answer
  socket.on('data', (chunk: Buffer) => {
    if (stage === 'done') return;
    reader.push(chunk);
    let payload: Buffer | undefined;
    try {
      payload = reader.next(stage === 'hello' ? MAX_HELLO_BYTES : MAX_CALL_BYTES);
    } catch (err) {
      return fallBack(`protocol: ${(err as Error).message}`);
    }
    if (payload === undefined) return;
    if (stage === 'hello') {
      try {
        hello = parseHello(payload);
      } catch (err) {
        return fallBack(`protocol: ${(err as Error).message}`);
      }
      if (hello.kind === 'status') return finish(jsonFrame(host.status()));
      if (hello.kind === 'stop') return finish(jsonFrame(host.status()), () => host.stop());
      const accepted = host.accept(hello);
      if (typeof accepted === 'string') return fallBack(accepted);
      flags = accepted;
      reads = host.reads();
      stage = 'call';
      socket.write(readsFrame(reads));
      return;
    }
    stage = 'done';
    let call: ReturnType<typeof parseCall>;
    try {
      call = parseCall(payload, reads.length);
    } catch (err) {
      return fallBack(`protocol: ${(err as Error).message}`);
    }
    const changed = readsMismatch(reads, call.digests);
    // The answer first: stale() may stop the daemon (its own code changed).
    if (changed !== undefined) return fallBack(changed, () => host.stale(changed));
    host.answer(flags!, hello!, call.input, call.deadlineMs).then(
      (a) => {
        host.count('answered');
        finish(answerFrame(a.code, a.stdout, a.stderr ?? ''));
      },
      (err: unknown) => fallBack(`internal error: ${(err as Error).message}`),
    );
  });
}
