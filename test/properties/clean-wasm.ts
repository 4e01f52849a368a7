// Invariant 5's wasm hooks. A wasm hook has no environment, arguments or files (docs/wasm.md): the
// `env`, `inheritEnv`, `isolation` and `runAs` a generated hook carries are a command hook's fields,
// ignored with a warning. The property gives wasm hooks the same generated variables as its command
// hooks and checks that none of them, nor any host variable they name, reaches the host or the
// machinery (this process's environment, any process's environ or cmdline: the property's own
// checks) or the module itself: each hook runs one probe module that asks WASI for everything it
// could see (environ_sizes_get/environ_get, args_sizes_get/args_get, a preopened directory at fd 3)
// and answers it all, hex encoded, as its additionalContext.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { HEX_HELPER, wat } from '../helpers/wasm.js';
import { type EnvHook, envHooksArb } from './gen/env.js';

/** Where the probe puts what it saw: counts and errnos (HEADER bytes at 16), environ bytes, args bytes. */
const HEADER = 36;
const ENV_CAP = 32_768;
const ARGS_CAP = 8_192;

/** The probe of hook `key` (each hook its own module: identical hooks would run once per event). */
const probe = (key: string) => `(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "environ_sizes_get" (func $environ_sizes_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "environ_get" (func $environ_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $args_sizes_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_get" (func $args_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_prestat_get" (func $fd_prestat_get (param i32 i32) (result i32)))
  (memory (export "memory") 4)
  (data (i32.const 7000) "{\\"additionalContext\\":\\"wasm-probe:")
  (data (i32.const 7100) ":")
  (data (i32.const 7300) "${key}:")
  (data (i32.const 7200) "\\"}")
  (func $write (param $fd i32) (param $ptr i32) (param $len i32)
    (i32.store (i32.const 0) (local.get $ptr))
    (i32.store (i32.const 4) (local.get $len))
    (drop (call $fd_write (local.get $fd) (i32.const 0) (i32.const 1) (i32.const 8))))
  ${HEX_HELPER}
  (func $section (param $src i32) (param $len i32)
    (call $hex (local.get $src) (local.get $len) (i32.const 98304))
    (call $write (i32.const 1) (i32.const 98304) (i32.shl (local.get $len) (i32.const 1))))
  (func $min (param $a i32) (param $b i32) (result i32)
    (select (local.get $a) (local.get $b) (i32.lt_u (local.get $a) (local.get $b))))
  (func (export "_start")
    ;; 16 envc, 20 environ bytes, 24 argc, 28 args bytes, then the errnos of the calls
    (i32.store (i32.const 32) (call $environ_sizes_get (i32.const 16) (i32.const 20)))
    (i32.store (i32.const 36) (call $args_sizes_get (i32.const 24) (i32.const 28)))
    (i32.store (i32.const 40) (call $fd_prestat_get (i32.const 3) (i32.const 56)))
    (i32.store (i32.const 44) (i32.const -1))
    (i32.store (i32.const 48) (i32.const -1))
    (if (i32.and (i32.le_u (i32.load (i32.const 16)) (i32.const 1024))
                 (i32.le_u (i32.load (i32.const 20)) (i32.const ${ENV_CAP})))
      (then (i32.store (i32.const 44) (call $environ_get (i32.const 1024) (i32.const 8192)))))
    (if (i32.and (i32.le_u (i32.load (i32.const 24)) (i32.const 256))
                 (i32.le_u (i32.load (i32.const 28)) (i32.const ${ARGS_CAP})))
      (then (i32.store (i32.const 48) (call $args_get (i32.const 5120) (i32.const 40960)))))
    (call $write (i32.const 1) (i32.const 7000) (i32.const 33))
    (call $write (i32.const 1) (i32.const 7300) (i32.const ${key.length + 1}))
    (call $section (i32.const 16) (i32.const ${HEADER}))
    (call $write (i32.const 1) (i32.const 7100) (i32.const 1))
    (call $section (i32.const 8192) (call $min (i32.load (i32.const 20)) (i32.const ${ENV_CAP})))
    (call $write (i32.const 1) (i32.const 7100) (i32.const 1))
    (call $section (i32.const 40960) (call $min (i32.load (i32.const 28)) (i32.const ${ARGS_CAP})))
    (call $write (i32.const 1) (i32.const 7200) (i32.const 2))))`;

/** Writes hook `key`'s probe module into `dir`; returns its source, relative to `dir`. */
export async function writeProbe(dir: string, key: string): Promise<string> {
  if (!/^\w+$/.test(key)) throw new Error(`a probe key is a word, got ${key}`);
  writeFileSync(join(dir, `probe-${key}.wasm`), await wat(probe(key)));
  return `probe-${key}.wasm`;
}

/** None to three wasm hooks a case, carrying generated variables as its command hooks do. */
export const wasmEnvHooksArb = (hostVars: number): fc.Arbitrary<EnvHook[]> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant<EnvHook[]>([]) },
    { weight: 3, arbitrary: envHooksArb(hostVars) },
  );

/** A wasm hook's entry, a command hook's fields on it (to be ignored). */
export function wasmHookSpec(h: EnvHook, key: string, source: string, hostVar: (i: number) => string) {
  return {
    type: 'wasm',
    name: key,
    source,
    env: Object.fromEntries(h.env),
    inheritEnv: h.inherit.map(hostVar),
    isolation: h.isolation,
    ...(h.nobody ? { runAs: 'nobody' } : {}),
    timeoutMs: 60_000,
  };
}

/**
 * Checks what each probe saw (from the dispatch's additionalContext): no variable, no argument, no
 * preopened directory, and none of the secrets in any byte it read. Throws on the first finding.
 */
export function checkProbes(
  context: string | undefined,
  keys: readonly string[],
  secrets: readonly string[],
): void {
  const seen = [
    ...(context ?? '').matchAll(/wasm-probe:(\w+):([0-9a-f]*)(?::([0-9a-f]*))?(?::([0-9a-f]*))?/g),
  ];
  const answered = seen.map((m) => m[1]).sort();
  if (JSON.stringify(answered) !== JSON.stringify([...keys].sort()))
    throw new Error(`wasm hooks ${keys} ran, probes ${answered} answered: ${context?.slice(0, 300)}`);
  for (const [, , header = '', env = '', args = ''] of seen) {
    const h = Buffer.from(header, 'hex');
    if (h.length !== HEADER) throw new Error(`a probe's header is ${h.length} bytes`);
    const [envc, envBytes, argc, argBytes] = [0, 4, 8, 12].map((o) => h.readUInt32LE(o));
    const prestat = h.readInt32LE(24);
    const text = Buffer.concat([Buffer.from(env, 'hex'), Buffer.from(args, 'hex')]).toString('utf8');
    const what = `environ ${envc} variables (${envBytes} bytes), args ${argc} (${argBytes} bytes), fd 3 prestat errno ${prestat}: ${JSON.stringify(text.slice(0, 300))}`;
    for (const s of secrets)
      if (text.includes(s)) throw new Error(`a wasm hook read ${JSON.stringify(s)}: ${what}`);
    if (envc !== 0 || envBytes !== 0 || argc !== 0 || argBytes !== 0 || prestat === 0)
      throw new Error(`a wasm hook saw more than nothing: ${what}`);
  }
}
