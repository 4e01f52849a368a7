// The WASI preview 1 layer of one wasm hook call: every function of wasi-calls.ts bound to this
// call's state. stdin is the HookInput JSON; stdout and stderr are kept in memory up to the output
// cap (past it the call ends `output_limit`); every clock reads the event's timestamp; random bytes
// come from SHA-256 in counter mode, seeded from (hook id, digest of the input); proc_exit ends the
// call. No argument, no variable, no preopened directory, no socket: the rest answers an errno.
// Every pointer the module passes is checked against its memory (EFAULT, never a host error).
import { createHash } from 'node:crypto';
import { WASI_CALLS } from './wasi-calls.js';

const ERRNO = { success: 0, badf: 8, fault: 21, inval: 28, nosys: 52, notsock: 57, notsup: 58, spipe: 70 };

/** Thrown by proc_exit: unwinds the module to the host with its exit code. */
export class ProcExit {
  constructor(readonly code: number) {}
}

/** Thrown by fd_write past the cap. */
export class OutputLimit {
  constructor(
    readonly stream: 'stdout' | 'stderr',
    readonly limitBytes: number,
  ) {}
}

export interface WasiCall {
  readonly stdin: Uint8Array;
  /** The event's timestamp in ns: every clock. */
  readonly nowNs: bigint;
  readonly maxOutputBytes: number;
  /** Seeds random_get (computed on the first call only). */
  readonly seed: () => Buffer;
}

class Stream {
  readonly chunks: Uint8Array[] = [];
  bytes = 0;
  text(): string {
    return Buffer.concat(this.chunks, this.bytes).toString('utf8');
  }
}

/**
 * The WASI state of the call running in this thread (one at a time): `begin()` starts a call with
 * nothing of the previous one left. The import object (wasiImports) is made once and reads it.
 */
export class WasiState {
  memory: WebAssembly.Memory | undefined;
  stdout = new Stream();
  stderr = new Stream();
  #stdinPos = 0;
  #random: { key: Buffer; counter: number; pool: Buffer } | undefined;
  call: WasiCall = { stdin: new Uint8Array(0), nowNs: 0n, maxOutputBytes: 0, seed: () => Buffer.alloc(32) };

  begin(call: WasiCall, memory: WebAssembly.Memory | undefined): void {
    this.call = call;
    this.memory = memory;
    this.stdout = new Stream();
    this.stderr = new Stream();
    this.#stdinPos = 0;
    this.#random = undefined;
  }

  #view(): DataView {
    if (this.memory === undefined) throw new RangeError('no memory');
    return new DataView(this.memory.buffer);
  }

  #bytes(ptr: number, len: number): Uint8Array {
    if (this.memory === undefined) throw new RangeError('no memory');
    return new Uint8Array(this.memory.buffer, ptr, len);
  }

  /** The (pointer, length) pairs of an iovec array. */
  #iovs(iovs: number, count: number): [number, number][] {
    const v = this.#view();
    const out: [number, number][] = [];
    for (let i = 0; i < count; i++)
      out.push([v.getUint32(iovs + i * 8, true), v.getUint32(iovs + i * 8 + 4, true)]);
    return out;
  }

  read(fd: number, iovs: number, count: number, nread: number): number {
    if (fd !== 0) return ERRNO.badf;
    const input = this.call.stdin;
    let n = 0;
    for (const [ptr, len] of this.#iovs(iovs, count)) {
      const take = Math.min(len, input.length - this.#stdinPos);
      this.#bytes(ptr, take).set(input.subarray(this.#stdinPos, this.#stdinPos + take));
      this.#stdinPos += take;
      n += take;
      if (take < len) break;
    }
    this.#view().setUint32(nread, n, true);
    return ERRNO.success;
  }

  write(fd: number, iovs: number, count: number, nwritten: number): number {
    if (fd !== 1 && fd !== 2) return ERRNO.badf;
    const stream = fd === 1 ? this.stdout : this.stderr;
    let n = 0;
    for (const [ptr, len] of this.#iovs(iovs, count)) {
      if (stream.bytes + len > this.call.maxOutputBytes)
        throw new OutputLimit(fd === 1 ? 'stdout' : 'stderr', this.call.maxOutputBytes);
      stream.chunks.push(this.#bytes(ptr, len).slice());
      stream.bytes += len;
      n += len;
    }
    this.#view().setUint32(nwritten, n, true);
    return ERRNO.success;
  }

  randomBytes(buf: number, len: number): number {
    const target = this.#bytes(buf, len);
    let done = 0;
    while (done < len) {
      this.#random ??= { key: this.call.seed(), counter: 0, pool: Buffer.alloc(0) };
      const r = this.#random;
      if (r.pool.length === 0) {
        const block = Buffer.alloc(8);
        block.writeBigUInt64LE(BigInt(r.counter++));
        r.pool = createHash('sha256').update(r.key).update(block).digest();
      }
      const take = Math.min(r.pool.length, len - done);
      target.set(r.pool.subarray(0, take), done);
      r.pool = r.pool.subarray(take);
      done += take;
    }
    return ERRNO.success;
  }

  /** fdstat of stdin, stdout and stderr: pipes (filetype unknown), no seek. */
  fdstat(fd: number, ptr: number): number {
    if (fd > 2 || fd < 0) return ERRNO.badf;
    const v = this.#view();
    for (let i = 0; i < 24; i++) v.setUint8(ptr + i, 0);
    // rights: fd_read (1 << 1) or fd_write (1 << 6), and poll_fd_readwrite (1 << 27)
    v.setBigUint64(ptr + 8, fd === 0 ? (1n << 1n) | (1n << 27n) : (1n << 6n) | (1n << 27n), true);
    return ERRNO.success;
  }

  filestat(fd: number, ptr: number): number {
    if (fd > 2 || fd < 0) return ERRNO.badf;
    const v = this.#view();
    for (let i = 0; i < 64; i++) v.setUint8(ptr + i, 0);
    return ERRNO.success;
  }

  clockTime(id: number, ptr: number): number {
    if (id < 0 || id > 3) return ERRNO.inval;
    this.#view().setBigUint64(ptr, this.call.nowNs, true);
    return ERRNO.success;
  }

  /** Every clock has the timestamp's resolution: a millisecond. */
  clockRes(id: number, ptr: number): number {
    if (id < 0 || id > 3) return ERRNO.inval;
    this.#view().setBigUint64(ptr, 1_000_000n, true);
    return ERRNO.success;
  }

  /** Every subscription fires at once: clocks (time does not pass), stdin readable, stdout/stderr writable. */
  poll(subs: number, events: number, count: number, nevents: number): number {
    if (count === 0) return ERRNO.inval;
    const v = this.#view();
    for (let i = 0; i < count; i++) {
      const s = subs + i * 48;
      const e = events + i * 32;
      const tag = v.getUint8(s + 8);
      const fd = v.getUint32(s + 16, true);
      v.setBigUint64(e, v.getBigUint64(s, true), true);
      const bad = tag !== 0 && !(tag === 1 ? fd === 0 : fd === 1 || fd === 2);
      v.setUint16(e + 8, bad ? ERRNO.badf : 0, true);
      v.setUint8(e + 10, tag);
      const left = tag === 1 ? this.call.stdin.length - this.#stdinPos : this.call.maxOutputBytes;
      v.setBigUint64(e + 16, tag === 0 || bad ? 0n : BigInt(left), true);
      v.setUint16(e + 24, 0, true);
    }
    v.setUint32(nevents, count, true);
    return ERRNO.success;
  }

  zeroPair(a: number, b: number): number {
    const v = this.#view();
    v.setUint32(a, 0, true);
    v.setUint32(b, 0, true);
    return ERRNO.success;
  }
}

/** An errno for a call on fd `fd`: stdio (0–2) cannot do it, any other fd does not exist. */
const onFd = (stdio: number) => (fd: number) => (fd >= 0 && fd <= 2 ? stdio : ERRNO.badf);

/** Guards a call: a pointer outside the module's memory answers EFAULT. */
function guarded<A extends unknown[]>(fn: (...args: A) => number): (...args: A) => number {
  return (...args: A) => {
    try {
      return fn(...args);
    } catch (err) {
      if (err instanceof RangeError) return ERRNO.fault;
      throw err;
    }
  };
}

/** The import object for `wasi_snapshot_preview1`, bound to `s`. */
export function wasiImports(s: WasiState): Record<string, (...args: never[]) => unknown> {
  const acts: Record<string, (...args: never[]) => unknown> = {
    args_get: () => ERRNO.success,
    args_sizes_get: guarded((a: number, b: number) => s.zeroPair(a, b)),
    environ_get: () => ERRNO.success,
    environ_sizes_get: guarded((a: number, b: number) => s.zeroPair(a, b)),
    clock_res_get: guarded((id: number, ptr: number) => s.clockRes(id, ptr)),
    clock_time_get: guarded((id: number, _precision: bigint, ptr: number) => s.clockTime(id, ptr)),
    fd_close: onFd(ERRNO.success),
    fd_fdstat_get: guarded((fd: number, ptr: number) => s.fdstat(fd, ptr)),
    fd_fdstat_set_flags: onFd(ERRNO.success),
    fd_filestat_get: guarded((fd: number, ptr: number) => s.filestat(fd, ptr)),
    fd_prestat_get: () => ERRNO.badf,
    fd_prestat_dir_name: () => ERRNO.badf,
    fd_read: guarded((fd: number, iovs: number, n: number, out: number) => s.read(fd, iovs, n, out)),
    fd_write: guarded((fd: number, iovs: number, n: number, out: number) => s.write(fd, iovs, n, out)),
    fd_seek: onFd(ERRNO.spipe),
    fd_tell: onFd(ERRNO.spipe),
    poll_oneoff: guarded((i: number, o: number, n: number, out: number) => s.poll(i, o, n, out)),
    proc_exit: (code: number) => {
      throw new ProcExit(code >>> 0);
    },
    proc_raise: () => ERRNO.nosys,
    random_get: guarded((buf: number, len: number) => s.randomBytes(buf, len)),
    sched_yield: () => ERRNO.success,
  };
  const out: Record<string, (...args: never[]) => unknown> = Object.create(null);
  for (const name of Object.keys(WASI_CALLS)) {
    out[name] =
      acts[name] ??
      (name.startsWith('sock_')
        ? onFd(ERRNO.notsock)
        : name.startsWith('fd_')
          ? onFd(ERRNO.notsup)
          : () => ERRNO.badf);
  }
  return out;
}
