// Wasm hook fixtures written in the WebAssembly text format and assembled at test time by wabt (an
// npm package: no toolchain needed), plus modules built byte by byte where the text format cannot say
// what a test needs (malformed ones). Each module is a WASI preview 1 command (exports `_start`).
import { join } from 'node:path';
import wabtInit from 'wabt';
import { tempDir, writeConfig, writeFile } from './fixture.js';

let wabt: Awaited<ReturnType<typeof wabtInit>> | undefined;

/** Assembles a module from text (the `$wasi` helpers below may be spliced in). */
export async function wat(text: string): Promise<Uint8Array> {
  wabt ??= await wabtInit();
  const m = wabt.parseWat('hook.wat', text, {
    bulk_memory: true,
    mutable_globals: true,
    sign_extension: true,
    reference_types: true,
    simd: true,
    tail_call: true,
    multi_value: true,
  });
  try {
    m.resolveNames();
    m.validate();
    return new Uint8Array(m.toBinary({}).buffer);
  } finally {
    m.destroy();
  }
}

/** Imports and helpers every fixture may use: `$write(fd, ptr, len)`, `$read_all(ptr) -> len`, `$exit`. */
export const WASI_PRELUDE = `
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 2)
  ;; iovec scratch at 0..16; stdin lands at 1024 and after
  (func $write (param $fd i32) (param $ptr i32) (param $len i32)
    (i32.store (i32.const 0) (local.get $ptr))
    (i32.store (i32.const 4) (local.get $len))
    (drop (call $fd_write (local.get $fd) (i32.const 0) (i32.const 1) (i32.const 8))))
  (func $read_all (param $ptr i32) (result i32)
    (local $total i32)
    (block $done
      (loop $more
        (i32.store (i32.const 0) (i32.add (local.get $ptr) (local.get $total)))
        (i32.store (i32.const 4) (i32.const 4096))
        (drop (call $fd_read (i32.const 0) (i32.const 0) (i32.const 1) (i32.const 8)))
        (br_if $done (i32.eqz (i32.load (i32.const 8))))
        (local.set $total (i32.add (local.get $total) (i32.load (i32.const 8))))
        (br $more)))
    (local.get $total))
  ;; whether memory[ptr, ptr+len) contains the needle at memory[nptr, nptr+nlen)
  (func $contains (param $ptr i32) (param $len i32) (param $nptr i32) (param $nlen i32) (result i32)
    (local $i i32) (local $j i32)
    (block $no
      (loop $at
        (br_if $no (i32.gt_s (i32.add (local.get $i) (local.get $nlen)) (local.get $len)))
        (local.set $j (i32.const 0))
        (block $miss
          (loop $cmp
            (if (i32.ge_u (local.get $j) (local.get $nlen)) (then (return (i32.const 1))))
            (br_if $miss (i32.ne
              (i32.load8_u (i32.add (i32.add (local.get $ptr) (local.get $i)) (local.get $j)))
              (i32.load8_u (i32.add (local.get $nptr) (local.get $j)))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $cmp)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $at)))
    (i32.const 0))
`;

/** A config whose hooks (by event) are wasm modules written next to it. */
export function wasmConfig(
  hooks: Record<string, { name: string; module: Uint8Array; matcher?: string; [k: string]: unknown }[]>,
  extra: Record<string, unknown> = {},
): string {
  const dir = tempDir('hw-wasm-');
  const events: Record<string, unknown> = {};
  for (const [event, list] of Object.entries(hooks)) {
    events[event] = list.map(({ name, module, matcher, ...rest }) => {
      writeFile(join(dir, 'hooks', `${name}.wasm`), Buffer.from(module));
      return {
        ...(matcher === undefined ? {} : { matcher }),
        hooks: [{ type: 'wasm', name, source: `hooks/${name}.wasm`, ...rest }],
      };
    });
  }
  return writeConfig(dir, 'hooks.json', { ...extra, hooks: events });
}

/** `$hex(src, len, dst)`: writes 2×len lowercase hex digits of memory[src, src+len) at dst. */
export const HEX_HELPER = `
  (func $hex (param $src i32) (param $len i32) (param $dst i32)
    (local $i i32) (local $b i32) (local $d i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (local.set $b (i32.load8_u (i32.add (local.get $src) (local.get $i))))
        (local.set $d (i32.shr_u (local.get $b) (i32.const 4)))
        (i32.store8 (i32.add (local.get $dst) (i32.shl (local.get $i) (i32.const 1)))
          (i32.add (local.get $d) (select (i32.const 48) (i32.const 87) (i32.lt_u (local.get $d) (i32.const 10)))))
        (local.set $d (i32.and (local.get $b) (i32.const 15)))
        (i32.store8 (i32.add (i32.add (local.get $dst) (i32.shl (local.get $i) (i32.const 1))) (i32.const 1))
          (i32.add (local.get $d) (select (i32.const 48) (i32.const 87) (i32.lt_u (local.get $d) (i32.const 10)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))
`;

/** Writes `{"additionalContext":"<hex of memory[src, src+len)>"}` on stdout (uses $hex; scratch at 8192). */
export const CONTEXT_HELPER = `
  (data (i32.const 7000) "{\\"additionalContext\\":\\"")
  (data (i32.const 7100) "\\"}")
  (func $context_hex (param $src i32) (param $len i32)
    (call $hex (local.get $src) (local.get $len) (i32.const 8192))
    (call $write (i32.const 1) (i32.const 7000) (i32.const 22))
    (call $write (i32.const 1) (i32.const 8192) (i32.shl (local.get $len) (i32.const 1)))
    (call $write (i32.const 1) (i32.const 7100) (i32.const 2)))
`;
