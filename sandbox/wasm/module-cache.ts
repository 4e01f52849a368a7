// Compiled wasm hook modules, once per (module digest, memory cap, metering): every hook, executor,
// reload and worker thread with the same module and limits shares one compiled module (a
// WebAssembly.Module posted to a worker shares its code). Least recently used entries are dropped
// past a bound.
import { createHash } from 'node:crypto';
import { type PrepareOptions, prepareModule } from './prepare-module.js';

export type CompiledModule =
  | {
      readonly ok: true;
      readonly module: WebAssembly.Module;
      readonly memoryPages: { readonly initial: number; readonly maximum: number } | undefined;
    }
  | { readonly ok: false; readonly message: string; readonly refusedImport?: string };

/** Compiled modules kept. */
const MAX_ENTRIES = 256;
const cache = new Map<string, Promise<CompiledModule>>();

async function compile(bytes: Uint8Array, o: PrepareOptions): Promise<CompiledModule> {
  const prepared = prepareModule(bytes, o);
  if (!prepared.ok) return prepared;
  try {
    return {
      ok: true,
      module: await WebAssembly.compile(prepared.bytes as Uint8Array<ArrayBuffer>),
      memoryPages: prepared.memoryPages,
    };
  } catch (err) {
    return { ok: false, message: `the module does not compile: ${(err as Error).message}` };
  }
}

/** The module checked, capped, instrumented and compiled (or why it is refused). */
export function compileHookModule(
  bytes: Uint8Array,
  o: PrepareOptions,
  digest?: string,
): Promise<CompiledModule> {
  const d = digest ?? createHash('sha256').update(bytes).digest('hex');
  const key = `${d}:${Math.floor(o.memoryBytes / 65_536)}:${o.metered ? 1 : 0}`;
  let entry = cache.get(key);
  if (entry !== undefined) {
    cache.delete(key);
    cache.set(key, entry);
    return entry;
  }
  entry = compile(bytes, o);
  cache.set(key, entry);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return entry;
}
