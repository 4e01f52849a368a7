// The hooks a worker has loaded, by image key (source, file name and memory limit: what loading
// depends on). A loaded hook is an image of the environment plus its compiled and evaluated module,
// with the handle of its default export (valid whenever that image is in memory); a hook whose loading
// failed in a way that does not depend on the call (a syntax error, a throw at top level, no default
// export) keeps its failure, so a broken hook is not compiled again on every call. Least recently
// used entries are dropped past a byte budget; a dropped hook is loaded again on its next call.
import { createHash } from 'node:crypto';
import type { QuickJSHandle } from 'quickjs-emscripten-core';
import type { HookError } from '../../src/contract/error-codes.js';
import type { JsHookSpec } from '../../src/contract/js-task.js';
import type { Logs } from './console-capture.js';
import type { HeapImage } from './heap-image.js';

export interface LoadedHook {
  readonly kind: 'loaded';
  readonly image: HeapImage;
  readonly fn: QuickJSHandle;
  /** What the module's top level printed: it heads every call's console capture. */
  readonly setupLogs: Logs;
  /** How long loading took (compile, top level, image). */
  readonly loadMs: number;
}

interface FailedLoad {
  readonly kind: 'failed';
  readonly error: HookError;
  readonly logs: string[];
}

export type LoadResult = LoadedHook | FailedLoad;

const keys = new WeakMap<JsHookSpec, string>();

/** What a loaded hook's image depends on (computed once per spec). */
export function imageKey(spec: JsHookSpec): string {
  let key = keys.get(spec);
  if (key === undefined) {
    key = createHash('sha256')
      .update(spec.filename)
      .update('\0')
      .update(String(spec.memoryBytes))
      .update('\0')
      .update(spec.code)
      .digest('base64');
    keys.set(spec, key);
  }
  return key;
}

const sizeOf = (r: LoadResult) => (r.kind === 'loaded' ? r.image.bytes : 1024);

export class HookImages {
  readonly #entries = new Map<string, LoadResult>();
  #bytes = 0;
  /** Images built (each a compile and an evaluation of a hook's module). */
  built = 0;

  constructor(readonly budgetBytes: number) {}

  get(key: string): LoadResult | undefined {
    const r = this.#entries.get(key);
    if (r !== undefined) {
      // Most recently used last.
      this.#entries.delete(key);
      this.#entries.set(key, r);
    }
    return r;
  }

  set(key: string, r: LoadResult): void {
    this.delete(key);
    this.#entries.set(key, r);
    this.#bytes += sizeOf(r);
    if (r.kind === 'loaded') this.built++;
    for (const [k, old] of this.#entries) {
      if (this.#bytes <= this.budgetBytes || old === r) break;
      this.delete(k);
    }
  }

  delete(key: string): void {
    const r = this.#entries.get(key);
    if (r === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= sizeOf(r);
  }

  /** Every image belongs to one module: a new module starts with none. */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get count(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }
}
