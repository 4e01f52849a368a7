// One call of a wasm hook: a fresh instance of its compiled module (globals and tables are the
// instance's; its memory is a zeroed one of the declared size, memory-pool.ts), the WASI layer,
// `_start`, and how it ended. A trap after a refused memory growth is `memory_limit`, a trap on an
// empty fuel tank a `timeout` (the instruction budget), any other trap the module's own fault
// (`runtime_error`); a stack overflow is `stack_overflow`; output past the cap `output_limit`.
import { createHash } from 'node:crypto';
import { type HookError, hookError } from '../../src/contract/error-codes.js';
import type { WasmOutcome, WasmTask, WasmWorkerSpec } from '../../src/contract/wasm-task.js';
import type { MemoryPool } from './memory-pool.js';
import { FUEL_EXPORT, GROW_REFUSED_EXPORT, MEMORY_IMPORT } from './prepare-module.js';
import { OutputLimit, ProcExit, WasiState, wasiImports } from './wasi.js';

/** Most fuel a call may have: the largest i64. */
const MAX_FUEL = 2n ** 63n - 1n;

/** The seed of random_get: sha256(hook id, NUL, sha256(stdin)). */
function seedOf(id: string, stdin: Uint8Array): Buffer {
  const digest = createHash('sha256').update(stdin).digest();
  return createHash('sha256').update(id).update('\0').update(digest).digest();
}

type Ending = { readonly exitCode: number } | { readonly error: HookError; readonly trap?: true };

const globalOf = (i: WebAssembly.Instance | undefined, name: string) =>
  i?.exports[name] as WebAssembly.Global | undefined;

/** How a call that threw ended: an exit code, or the hook's failure. */
function classify(spec: WasmWorkerSpec, instance: WebAssembly.Instance | undefined, thrown: unknown): Ending {
  if (thrown instanceof ProcExit) return { exitCode: thrown.code };
  if (thrown instanceof OutputLimit) {
    const message = `${thrown.stream} passed its cap of ${thrown.limitBytes} bytes (maxOutputBytes)`;
    const details = { limitBytes: thrown.limitBytes, stream: thrown.stream };
    return { error: hookError('output_limit', message, details) };
  }
  if (globalOf(instance, GROW_REFUSED_EXPORT)?.value === 1) {
    const message = `the module's memory reached its cap of ${spec.maxMemoryBytes} bytes (memoryBytes) and it could not go on`;
    return { error: hookError('memory_limit', message, { limitBytes: spec.maxMemoryBytes }) };
  }
  if (thrown instanceof WebAssembly.RuntimeError) {
    const fuel = globalOf(instance, FUEL_EXPORT)?.value as bigint | undefined;
    if (spec.fuel !== undefined && fuel !== undefined && fuel < 0n) {
      const message = `the module used its fuel of ${spec.fuel} instructions (fuel)`;
      return { error: hookError('timeout', message, { fuel: spec.fuel }) };
    }
    return { error: hookError('runtime_error', `the module trapped: ${thrown.message}`), trap: true };
  }
  if (thrown instanceof RangeError && /call stack/i.test(thrown.message))
    return { error: hookError('stack_overflow', 'the module overflowed its stack') };
  const message = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  return { error: hookError('runtime_error', `the module could not run: ${message}`) };
}

/** Runs wasm hook calls in this thread, one at a time. */
export class ModuleRunner {
  readonly #state = new WasiState();
  readonly #imports = { wasi_snapshot_preview1: wasiImports(this.#state) };

  constructor(readonly memories: MemoryPool) {}

  run(spec: WasmWorkerSpec, task: WasmTask, queuedMs: number): WasmOutcome {
    const began = performance.now();
    const stdin = Buffer.from(task.stdin, 'utf8');
    const pages = spec.memoryPages;
    const memory = pages === undefined ? undefined : this.memories.take(pages);
    const state = this.#state;
    state.begin(
      {
        stdin,
        nowNs: BigInt(Math.trunc(task.nowMs)) * 1_000_000n,
        maxOutputBytes: spec.maxOutputBytes,
        seed: () => seedOf(spec.id, stdin),
      },
      memory,
    );
    let instance: WebAssembly.Instance | undefined;
    let ending: Ending = { exitCode: 0 };
    try {
      const imports =
        memory === undefined
          ? this.#imports
          : { ...this.#imports, [MEMORY_IMPORT[0]]: { [MEMORY_IMPORT[1]]: memory } };
      instance = new WebAssembly.Instance(spec.module, imports);
      const fuel = globalOf(instance, FUEL_EXPORT)!;
      fuel.value = spec.fuel === undefined ? MAX_FUEL : BigInt(spec.fuel);
      (instance.exports._start as () => void)();
    } catch (thrown) {
      ending = classify(spec, instance, thrown);
    }
    const memoryBytes = memory?.buffer.byteLength ?? 0;
    if (memory !== undefined && pages !== undefined) this.memories.giveBack(pages, memory);
    state.memory = undefined;
    const timing = { durationMs: performance.now() - began, queuedMs, memoryBytes };
    const stderr = state.stderr.text();
    if ('error' in ending)
      return {
        kind: 'failed',
        error: ending.error,
        stderr,
        ...timing,
        ...(ending.trap ? { trap: true } : {}),
      };
    const left = spec.fuel === undefined ? undefined : (globalOf(instance, FUEL_EXPORT)?.value as bigint);
    const stdout = state.stdout.text();
    return {
      kind: 'exited',
      exitCode: ending.exitCode,
      stdout,
      stderr,
      ...timing,
      ...(left === undefined || spec.fuel === undefined ? {} : { fuelUsed: spec.fuel - Number(left) }),
    };
  }
}
