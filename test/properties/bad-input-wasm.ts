// Invariant 4's wasm hooks: the bad input reaches them as their stdin, and comes back as their
// answer. `drain` reads its stdin to the end and answers {}; `echo` reads it and answers with it:
// on stdout with exit 0, 1 or 3, or on stderr with exit 2 (a block, its reason the hostile bytes),
// the exit code picked by the input's length; `trap` reads it and traps when its length is odd.
// Each is a WASI command module written in the text format (test/helpers/wasm.ts assembles it).
import { join } from 'node:path';
import { writeFile } from '../helpers/fixture.js';
import { WASI_PRELUDE, wat } from '../helpers/wasm.js';

/** Stdin lands at 1024 (the prelude's $read_all); a module's memory grows to hold it. */
const READ = `
  (func $grow_for (param $need i32)
    (block $ok (loop $more
      (br_if $ok (i32.le_u (local.get $need) (i32.mul (memory.size) (i32.const 65536))))
      (if (i32.eq (memory.grow (i32.const 16)) (i32.const -1)) (then unreachable))
      (br $more))))
  (func $read_grow (result i32) (local $n i32) (local $got i32)
    (block $done (loop $more
      (call $grow_for (i32.add (i32.add (i32.const 1024) (local.get $n)) (i32.const 65536)))
      (i32.store (i32.const 0) (i32.add (i32.const 1024) (local.get $n)))
      (i32.store (i32.const 4) (i32.const 65536))
      (drop (call $fd_read (i32.const 0) (i32.const 0) (i32.const 1) (i32.const 8)))
      (local.set $got (i32.load (i32.const 8)))
      (br_if $done (i32.eqz (local.get $got)))
      (local.set $n (i32.add (local.get $n) (local.get $got)))
      (br $more)))
    (local.get $n))`;

const MODULES = {
  drain: `(module ${WASI_PRELUDE} ${READ} (data (i32.const 600) "{}")
    (func (export "_start") (drop (call $read_grow)) (call $write (i32.const 1) (i32.const 600) (i32.const 2))))`,
  echo: `(module ${WASI_PRELUDE} ${READ}
    (func (export "_start") (local $n i32) (local $code i32)
      (local.set $n (call $read_grow))
      (local.set $code (i32.and (local.get $n) (i32.const 3)))
      (call $write (select (i32.const 2) (i32.const 1) (i32.eq (local.get $code) (i32.const 2)))
        (i32.const 1024) (local.get $n))
      (call $exit (local.get $code))))`,
  trap: `(module ${WASI_PRELUDE} ${READ} (data (i32.const 600) "{}")
    (func (export "_start")
      (if (i32.and (call $read_grow) (i32.const 1)) (then unreachable))
      (call $write (i32.const 1) (i32.const 600) (i32.const 2))))`,
};
export type BadWasm = keyof typeof MODULES;

/** Writes the modules as `<name>.wasm` in `dir` (config files there name them by `source`). */
export async function writeBadWasm(dir: string): Promise<void> {
  for (const [name, text] of Object.entries(MODULES))
    writeFile(join(dir, `${name}.wasm`), Buffer.from(await wat(text)));
}

/** A hook group of wasm hooks named `<prefix>-<module>`, one per module given. */
export const wasmGroup = (prefix: string, ...modules: BadWasm[]) => ({
  hooks: modules.map((m) => ({ type: 'wasm', name: `${prefix}-${m}`, source: `${m}.wasm` })),
});
