// Generated wasm hooks: one module per hook, written in the text format and assembled by wabt, that
// does what a generated command hook does (gen/render.ts COMMAND_SCRIPT): reads its stdin, answers
// the hit answer when the stdin holds its token (or always, without one) and the miss answer
// otherwise, on stdout with exit 0 or on stderr with exit 2. What it saw is its stdin, as it crosses
// into the sandbox: the wasm lane's run is watched in this process (the module reads exactly those
// bytes), and each module exports `hwkey_<tag>_<key>` so a call is told apart by its own module.
import wabtInit from 'wabt';
import { WasmLane } from '../../src/pool/wasm-lane.js';
import type { Behaviour } from './gen/answers.js';
import { noteInput, type Seen } from './observe.js';

let wabt: Awaited<ReturnType<typeof wabtInit>> | undefined;

/** Loads wabt (once per file): renderers assemble modules synchronously after it. */
export async function initWasmHooks(): Promise<void> {
  wabt ??= await wabtInit();
  watchLane();
}

/** Every byte as a `\xx` escape: any text is a valid data string. */
const data = (text: string) =>
  [...Buffer.from(text, 'utf8')].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');

/** The module of one generated wasm hook. */
export function wasmHookModule(
  tag: string,
  key: string,
  token: string | undefined,
  hit: readonly [string, number],
  miss: readonly [string, number],
): Uint8Array {
  if (wabt === undefined) throw new Error('initWasmHooks() first');
  const t = Buffer.byteLength(token ?? '');
  const text = `(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 4)
  (data (i32.const 64) "${data(token ?? '')}")
  (global $hit i32 (i32.const 4096))
  (data (i32.const 4096) "${data(hit[0])}")
  (data (i32.const 32768) "${data(miss[0])}")
  (func (export "hwkey_${tag}_${key}"))
  (func $write (param $fd i32) (param $ptr i32) (param $len i32)
    (i32.store (i32.const 0) (local.get $ptr))
    (i32.store (i32.const 4) (local.get $len))
    (drop (call $fd_write (local.get $fd) (i32.const 0) (i32.const 1) (i32.const 8))))
  ;; reads all of stdin from 65536 on, growing the memory as it fills; returns its length
  (func $read_all (result i32) (local $n i32)
    (block $done (loop $more
      (if (i32.gt_u (i32.add (i32.add (local.get $n) (i32.const 65536)) (i32.const 65536))
                    (i32.mul (memory.size) (i32.const 65536)))
        (then (if (i32.eq (memory.grow (i32.const 16)) (i32.const -1)) (then unreachable))))
      (i32.store (i32.const 0) (i32.add (i32.const 65536) (local.get $n)))
      (i32.store (i32.const 4) (i32.const 65536))
      (drop (call $fd_read (i32.const 0) (i32.const 0) (i32.const 1) (i32.const 8)))
      (br_if $done (i32.eqz (i32.load (i32.const 8))))
      (local.set $n (i32.add (local.get $n) (i32.load (i32.const 8))))
      (br $more)))
    (local.get $n))
  (func $has_token (param $len i32) (result i32) (local $i i32) (local $j i32)
    (if (i32.eqz (i32.const ${t})) (then (return (i32.const 1))))
    (block $no (loop $at
      (br_if $no (i32.gt_u (i32.add (local.get $i) (i32.const ${t})) (local.get $len)))
      (local.set $j (i32.const 0))
      (block $miss (loop $cmp
        (if (i32.ge_u (local.get $j) (i32.const ${t})) (then (return (i32.const 1))))
        (br_if $miss (i32.ne (i32.load8_u (i32.add (i32.add (i32.const 65536) (local.get $i)) (local.get $j)))
                             (i32.load8_u (i32.add (i32.const 64) (local.get $j)))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $cmp)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $at)))
    (i32.const 0))
  (func (export "_start")
    (if (call $has_token (call $read_all))
      (then (call $write (i32.const ${hit[1] === 2 ? 2 : 1}) (i32.const 4096) (i32.const ${Buffer.byteLength(hit[0])}))
            (call $exit (i32.const ${hit[1]})))
      (else (call $write (i32.const ${miss[1] === 2 ? 2 : 1}) (i32.const 32768) (i32.const ${Buffer.byteLength(miss[0])}))
            (call $exit (i32.const ${miss[1]}))))))`;
  if (Buffer.byteLength(hit[0]) > 28_000 || Buffer.byteLength(miss[0]) > 28_000)
    throw new Error('a generated answer is larger than the module holds');
  const m = wabt.parseWat(`${key}.wat`, text);
  try {
    m.validate();
    return new Uint8Array(m.toBinary({}).buffer);
  } finally {
    m.destroy();
  }
}

/** Calls seen on the lane, by case tag: the hook key and the stdin it was handed. */
const calls = new Map<string, { key: string; stdin: string }[]>();
let watching = false;

function watchLane(): void {
  if (watching) return;
  watching = true;
  const run = WasmLane.prototype.run;
  WasmLane.prototype.run = function (this: WasmLane, call, options) {
    for (const e of WebAssembly.Module.exports(call.spec.module)) {
      const m = /^hwkey_(c\d+)_(.+)$/.exec(e.name);
      if (m === null) continue;
      const list = calls.get(m[1]!) ?? [];
      calls.set(m[1]!, list);
      list.push({ key: m[2]!, stdin: call.task.stdin });
    }
    return run.call(this, call, options);
  };
}

/** What the case's wasm hooks saw since the last take, noted as a command hook's stdin is. */
export function takeWasmCalls(tag: string, behaviours: ReadonlyMap<string, Behaviour>, seen: Seen): void {
  for (const { key, stdin } of calls.get(tag) ?? []) {
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(stdin) as Record<string, unknown>;
    } catch {
      continue;
    }
    noteInput(seen, key, behaviours.get(key), input, stdin);
  }
  calls.delete(tag);
}

/** Drops what a case's hooks left (its end). */
export function forgetWasmCalls(tag: string): void {
  calls.delete(tag);
}
