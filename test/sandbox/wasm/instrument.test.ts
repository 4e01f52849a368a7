// The module check and instrumentation read every instruction of WebAssembly 2.0: modules that use
// SIMD, bulk memory, reference types, br_table, typed select, indirect and tail calls, multi-value
// blocks and every constant width compute the same with and without fuel, and the example guards
// built by clang and rustc run metered, with the same fuel on every call.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MemoryPool } from '../../../sandbox/wasm/memory-pool.js';
import { compileHookModule } from '../../../sandbox/wasm/module-cache.js';
import { ModuleRunner } from '../../../sandbox/wasm/run-module.js';
import { CONTEXT_HELPER, HEX_HELPER, WASI_PRELUDE, wat } from '../../helpers/wasm.js';

async function run(bytes: Uint8Array, fuel: number | undefined, stdin = '{}') {
  const compiled = await compileHookModule(bytes, {
    memoryBytes: 8 * 1024 * 1024,
    metered: fuel !== undefined,
  });
  if (!compiled.ok) throw new Error(compiled.message);
  const spec = {
    key: 'k',
    id: 'instrument',
    module: compiled.module,
    maxMemoryBytes: 8 * 1024 * 1024,
    memoryPages: compiled.memoryPages,
    maxOutputBytes: 65536,
    deadlineMs: 5000,
    fuel,
  };
  return new ModuleRunner(new MemoryPool()).run(spec, { hook: 'k', stdin, nowMs: 0, submittedAt: 0 }, 0);
}

/** Every kind of immediate the instrumenter must step over, ending in 16 bytes of results at 512. */
const KITCHEN_SINK = `(module
  (type $binop (func (param i32 i32) (result i32)))
  ${WASI_PRELUDE} ${HEX_HELPER} ${CONTEXT_HELPER}
  (table $t 4 funcref)
  (elem (table $t) (i32.const 0) func $add $sub)
  (global $g (mut i64) (i64.const -9223372036854775808))
  (func $add (type $binop) (i32.add (local.get 0) (local.get 1)))
  (func $sub (type $binop) (i32.sub (local.get 0) (local.get 1)))
  (func $tail (param i32) (result i32) (return_call $add (local.get 0) (i32.const 1000000)))
  (func $pair (result i32 i32) (i32.const 7) (i32.const 35))
  (func (export "_start") (local $i i32) (local $acc i32) (local $v v128)
    ;; nested loops with br_table and typed select
    (loop $outer
      (block $b2 (block $b1 (block $b0
        (br_table $b0 $b1 $b2 (i32.rem_u (local.get $i) (i32.const 3))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 1))) (br $b2))
        (local.set $acc (select (result i32) (i32.const 3) (local.get $acc) (i32.const 0))))
      (loop $inner (br_if $inner (i32.eqz (i32.const 1))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $outer (i32.lt_u (local.get $i) (i32.const 300))))
    (i32.store (i32.const 512) (local.get $acc))
    ;; indirect and tail calls, multi-value
    (i32.store (i32.const 516) (call_indirect $t (type $binop) (i32.const 40) (i32.const 2) (i32.const 0)))
    (i32.store (i32.const 520) (i32.add (call $tail (i32.const 5)) (call $pair) (i32.add)))
    ;; SIMD: a constant, a shuffle, a lane read back
    (local.set $v (i8x16.shuffle 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0
      (v128.const i32x4 1 2 3 4) (v128.const i32x4 5 6 7 8)))
    (i32.store (i32.const 524) (i32x4.extract_lane 0 (local.get $v)))
    ;; bulk memory and reference types
    (memory.fill (i32.const 600) (i32.const 171) (i32.const 8))
    (memory.copy (i32.const 528) (i32.const 600) (i32.const 4))
    (table.set $t (i32.const 3) (table.get $t (i32.const 1)))
    (i32.store8 (i32.const 532) (table.size $t))
    (i32.store8 (i32.const 533) (ref.is_null (table.get $t (i32.const 2))))
    (i64.store (i32.const 536) (i64.add (global.get $g) (i64.const 0x7fffffffffffffff)))
    (f64.store (i32.const 544) (f64.add (f64.const 1.5) (f64.promote_f32 (f32.const 2.25))))
    (call $context_hex (i32.const 512) (i32.const 40))))`;

describe('instrumentation', () => {
  it('leaves what a module computes unchanged, with and without fuel', async () => {
    const bytes = await wat(KITCHEN_SINK);
    const plain = await run(bytes, undefined);
    const metered = await run(bytes, 1_000_000);
    expect(plain.kind).toBe('exited');
    expect(metered.kind).toBe('exited');
    if (plain.kind !== 'exited' || metered.kind !== 'exited') return;
    expect(metered.stdout).toBe(plain.stdout);
    const hex = (JSON.parse(plain.stdout) as { additionalContext: string }).additionalContext;
    const word = (i: number) => Buffer.from(hex, 'hex').readInt32LE(i);
    expect(word(0)).toBe(100); // the br_table loop
    expect(word(4)).toBe(42); // call_indirect
    expect(word(8)).toBe(1000005 + 42); // return_call and the pair
    expect(Buffer.from(hex, 'hex').readDoubleLE(32)).toBe(3.75);
    // The same fuel on every call.
    const again = await run(bytes, 1_000_000);
    expect(again.kind === 'exited' && again.fuelUsed).toBe(metered.fuelUsed);
    expect(metered.fuelUsed).toBeGreaterThan(300);
  });

  it('the example guards built by clang and rustc run metered, deciding as unmetered', async () => {
    const example = (f: string) =>
      new Uint8Array(
        readFileSync(
          fileURLToPath(new URL(`../../../examples/packs/wasm-guard/hooks/${f}`, import.meta.url)),
        ),
      );
    for (const file of ['protect-paths-c.wasm', 'protect-paths-rust.wasm']) {
      const stdin = JSON.stringify({ toolName: 'Write', toolInput: { file_path: '/etc/passwd' } });
      const plain = await run(example(file), undefined, stdin);
      const metered = await run(example(file), 50_000_000, stdin);
      expect(plain).toMatchObject({ kind: 'exited', exitCode: 2 });
      expect(metered).toMatchObject({
        kind: 'exited',
        exitCode: 2,
        stderr: plain.kind === 'exited' ? plain.stderr : '',
      });
      const starved = await run(example(file), 50, stdin);
      expect(starved).toMatchObject({ kind: 'failed', error: { code: 'timeout' } });
    }
  });
});
