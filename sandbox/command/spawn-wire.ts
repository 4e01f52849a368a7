// The spawn server's wire format, host side (the protocol is described in
// sandbox/native/spawn-server.c): SPAWN and RELEASE frames out, reply frames in.
import type { ClampedLimits, LaunchLimits, LaunchSpec, ProcessCap, StartFacts } from './launch.js';
import type { MountOp } from './namespace-plan.js';

export const PROTOCOL = 3;
const REQUEST = { spawn: 1, release: 2 } as const;
export const REPLY = { ready: 0, started: 1, failed: 2, stdout: 3, stderr: 4, closed: 5, exited: 6 } as const;
const FLAG = {
  runAs: 1,
  fd3: 2,
  addressSpace: 4,
  contain: 8,
  containRequired: 16,
  noCaps: 32,
  namespace: 64,
} as const;
/** A mount plan's operations and their flags (sandbox/native/spawn-ns.h). */
const OP = { bind: 1, symlink: 2, copy: 3, dev: 4, proc: 5 } as const;
const OP_FLAG = { rw: 1, optional: 2, perHook: 4 } as const;

/**
 * What one SPAWN may carry (the server refuses more: sandbox/native/spawn-wire.h): arguments,
 * variables, one string's bytes (the kernel's MAX_ARG_STRLEN, NUL included), argv + environment bytes.
 */
export const SPAWN_CAPS = {
  maxArgs: 65536,
  maxEnv: 4096,
  maxString: 131072,
  maxExecBytes: 2097152,
} as const;

/** Why `spec` is past a cap of the wire (the hook is not started), or undefined. */
export function spawnCapProblem(spec: LaunchSpec): string | undefined {
  const env = spec.env === undefined ? 0 : Object.keys(spec.env).length;
  if (spec.argv.length > SPAWN_CAPS.maxArgs)
    return `its command has ${spec.argv.length} arguments, more than the ${SPAWN_CAPS.maxArgs} hookwarden passes`;
  if (env > SPAWN_CAPS.maxEnv)
    return `its environment has ${env} variables, more than the ${SPAWN_CAPS.maxEnv} hookwarden passes`;
  let total = 0;
  const strings = [...spec.argv, ...Object.entries(spec.env ?? {}).map(([k, v]) => `${k}=${v}`)];
  for (const s of strings) {
    const n = Buffer.byteLength(s) + 1;
    if (n > SPAWN_CAPS.maxString)
      return `an argument or variable of ${n - 1} bytes is longer than the kernel passes to a program (${SPAWN_CAPS.maxString - 1})`;
    total += n;
  }
  if (total > SPAWN_CAPS.maxExecBytes)
    return `its arguments and environment take ${total} bytes, more than the ${SPAWN_CAPS.maxExecBytes} hookwarden passes`;
  return undefined;
}

class Writer {
  readonly buf: Buffer;
  off = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }
  u8(v: number) {
    this.buf[this.off++] = v;
  }
  u32(v: number) {
    this.buf.writeUInt32LE(v, this.off);
    this.off += 4;
  }
  u64(v: number) {
    this.u32(v % 0x1_0000_0000);
    this.u32(Math.floor(v / 0x1_0000_0000));
  }
  bytes(b: Buffer) {
    this.u32(b.length);
    this.off += b.copy(this.buf, this.off);
  }
  string(s: string, size: number) {
    this.u32(size);
    this.off += this.buf.write(s, this.off, size, 'utf8');
  }
}

/** A string as the wire carries it: u32 length, then its UTF-8 bytes. */
function wireString(s: string): Buffer {
  const b = Buffer.allocUnsafe(4 + Buffer.byteLength(s));
  b.writeUInt32LE(b.length - 4, 0);
  b.write(s, 4, 'utf8');
  return b;
}

/** Namespace mode's part of a SPAWN: the key, then the plan's operations. */
function encodePlan(ns: NonNullable<LaunchSpec['namespace']>): Buffer {
  const parts: Buffer[] = [wireString(ns.key), Buffer.alloc(4)];
  parts[1]!.writeUInt32LE(ns.ops.length, 0);
  for (const o of ns.ops) {
    const flags =
      (o.op === 'bind' && o.rw === true ? OP_FLAG.rw : 0) |
      (o.op === 'bind' && o.optional === true ? OP_FLAG.optional : 0) |
      ((o.op === 'bind' || o.op === 'proc') && o.perHook === true ? OP_FLAG.perHook : 0);
    parts.push(Buffer.from([OP[o.op], flags]), wireString(opSource(o)), wireString(o.dst));
  }
  return Buffer.concat(parts);
}

const opSource = (o: MountOp) =>
  o.op === 'bind' || o.op === 'copy' ? o.src : o.op === 'symlink' ? o.target : '';

/** A SPAWN frame for hook `id`. Strings must hold no NUL (the runner refuses them first). */
export function encodeSpawn(id: number, spec: LaunchSpec): Buffer {
  const env = spec.env === undefined ? [] : Object.entries(spec.env).map(([k, v]) => `${k}=${v}`);
  const strings = [spec.cwd, ...spec.argv, ...env];
  const sizes = strings.map((s) => Buffer.byteLength(s));
  const stdin = Buffer.from(spec.stdin);
  const fd3 = spec.fd3 ?? Buffer.alloc(0);
  const plan = spec.namespace === undefined ? undefined : encodePlan(spec.namespace);
  const size =
    4 +
    1 +
    4 +
    4 * 3 +
    8 * 5 +
    4 +
    4 * 2 +
    sizes.reduce((a, n) => a + 4 + n, 0) +
    8 +
    fd3.length +
    stdin.length;
  const w = new Writer(size);
  const l = spec.limits;
  w.u32(size - 4 + (plan?.length ?? 0));
  w.u8(REQUEST.spawn);
  w.u32(id);
  w.u32(
    (spec.runAs === undefined ? 0 : FLAG.runAs) |
      (spec.fd3 === undefined ? 0 : FLAG.fd3) |
      (l.addressSpaceBytes === undefined ? 0 : FLAG.addressSpace) |
      (spec.contain === 'off' ? 0 : FLAG.contain) |
      (spec.contain === 'require' ? FLAG.containRequired : 0) |
      (spec.dropCapabilities ? FLAG.noCaps : 0) |
      (plan === undefined ? 0 : FLAG.namespace),
  );
  w.u32(spec.runAs?.uid ?? 0);
  w.u32(spec.runAs?.gid ?? 0);
  w.u64(l.cpuSeconds);
  w.u64(l.openFiles);
  w.u64(l.fileSizeBytes);
  w.u64(l.addressSpaceBytes ?? 0);
  w.u64(spec.maxOutputBytes);
  w.u32(spec.maxProcesses);
  let k = 0;
  w.string(strings[k]!, sizes[k++]!);
  w.u32(spec.argv.length);
  for (let i = 0; i < spec.argv.length; i++) w.string(strings[k]!, sizes[k++]!);
  w.u32(env.length);
  for (let i = 0; i < env.length; i++) w.string(strings[k]!, sizes[k++]!);
  w.bytes(fd3);
  w.bytes(stdin);
  return plan === undefined ? w.buf : Buffer.concat([w.buf, plan]);
}

export function encodeRelease(id: number): Buffer {
  const buf = Buffer.allocUnsafe(9);
  buf.writeUInt32LE(5, 0);
  buf[4] = REQUEST.release;
  buf.writeUInt32LE(id, 5);
  return buf;
}

/** Splits the server's byte stream into frames (type, id, payload). */
export class FrameReader {
  #pending: Buffer | undefined;

  push(chunk: Buffer, onFrame: (type: number, id: number, payload: Buffer) => void): void {
    const buf = this.#pending === undefined ? chunk : Buffer.concat([this.#pending, chunk]);
    let off = 0;
    while (buf.length - off >= 9) {
      const len = buf.readUInt32LE(off);
      if (buf.length - off - 4 < len) break;
      onFrame(buf[off + 4]!, buf.readUInt32LE(off + 5), buf.subarray(off + 9, off + 4 + len));
      off += 4 + len;
    }
    this.#pending = off < buf.length ? buf.subarray(off) : undefined;
  }
}

/** The rlimits in the order of the wire (the STARTED reply's clamped bits and values). */
const LIMIT_ORDER: readonly (keyof LaunchLimits)[] = [
  'cpuSeconds',
  'openFiles',
  'fileSizeBytes',
  'addressSpaceBytes',
];

/** The process cap mechanisms, by the wire's number (sandbox/native/spawn-cap.h). */
const CAP_MECHANISMS: readonly ProcessCap['mechanism'][] = [
  'none',
  'pids-cgroup',
  'pid-namespace',
  'rlimit-nproc',
];

/** A STARTED payload: the pid, and what the server says of its containment, limits, cap and Landlock. */
export function decodeStarted(payload: Buffer): { pid: number; facts: StartFacts } {
  const pid = payload.readUInt32LE(0);
  const flags = payload.readUInt32LE(4);
  let clamped: ClampedLimits | undefined;
  LIMIT_ORDER.forEach((name, i) => {
    if ((flags & (2 << i)) === 0) return;
    clamped ??= {};
    clamped[name] = Number(payload.readBigUInt64LE(8 + 8 * i));
  });
  const at = 8 + 8 * LIMIT_ORDER.length;
  const mechanism = CAP_MECHANISMS[payload.readUInt32LE(at)] ?? 'none';
  const max = payload.readUInt32LE(at + 4);
  const landlock = payload.readUInt32LE(at + 8);
  const why = payload.subarray(at + 12).toString('utf8');
  const facts: StartFacts = {
    contained: (flags & 1) !== 0,
    ...(why === '' ? {} : { uncontained: why }),
    ...(clamped === undefined ? {} : { clamped }),
    processCap: mechanism === 'none' ? { mechanism } : { mechanism, max },
    ...(landlock > 0 ? { landlock } : {}),
  };
  return { pid, facts };
}
