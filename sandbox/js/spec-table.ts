// The JS hook specs a worker holds (source and limits), by key: the host sends each once per worker
// and tasks refer to it by key. Bounded: least recently used specs are dropped past `capacity` (a
// task naming a dropped one is answered `missing`, and the host sends it again with the spec).
import type { JsHookSpec, JsTaskMissing } from '../../src/contract/js-task.js';

const MAX_SPECS = 4096;

export class SpecTable {
  readonly #specs = new Map<string, JsHookSpec>();
  /** Tasks answered `missing`. */
  missing = 0;

  constructor(readonly capacity = MAX_SPECS) {}

  add(spec: JsHookSpec): void {
    this.#specs.delete(spec.key);
    this.#specs.set(spec.key, spec);
    if (this.#specs.size > this.capacity) this.#specs.delete(this.#specs.keys().next().value!);
  }

  /** The specs of `keys`, in order, or the keys this worker does not hold. */
  resolve(keys: readonly string[]): JsHookSpec[] | JsTaskMissing {
    const found: JsHookSpec[] = [];
    const missing: string[] = [];
    for (const k of keys) {
      const spec = this.#specs.get(k);
      if (spec === undefined) missing.push(k);
      else {
        this.#specs.delete(k);
        this.#specs.set(k, spec);
        found.push(spec);
      }
    }
    if (missing.length === 0) return found;
    this.missing++;
    return { missing };
  }
}
