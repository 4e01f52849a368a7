// The memories a wasm worker hands its calls. A prepared module imports its memory (prepare-module.ts),
// and each call gets one of the module's declared size whose every byte is zero, exactly what a new
// instance's own memory would be (the instance then writes its data segments): a fresh memory per
// instance costs ~0.2–0.3 ms of allocation, a zeroed one microseconds. A memory the call grew is
// dropped (it cannot shrink); the others are zeroed again before they are handed out, and kept
// within a byte budget per thread.
import { PAGE_BYTES } from './prepare-module.js';

export interface MemoryPages {
  readonly initial: number;
  readonly maximum: number;
}

/** Bytes of clean memories a thread keeps for later calls. */
const BUDGET_BYTES = 64 * 1024 * 1024;

const keyOf = (p: MemoryPages) => `${p.initial}:${p.maximum}`;

export class MemoryPool {
  readonly #clean = new Map<string, WebAssembly.Memory[]>();
  #dirty: { key: string; memory: WebAssembly.Memory }[] = [];
  #bytes = 0;
  /** Memories made (tests: reuse happens). */
  created = 0;

  /** A zeroed memory of `pages.initial` pages that may grow to `pages.maximum`. */
  take(pages: MemoryPages): WebAssembly.Memory {
    const key = keyOf(pages);
    const clean = this.#clean.get(key)?.pop();
    if (clean !== undefined) {
      this.#bytes -= clean.buffer.byteLength;
      return clean;
    }
    const i = this.#dirty.findIndex((d) => d.key === key);
    if (i >= 0) {
      const [d] = this.#dirty.splice(i, 1);
      new Uint8Array(d!.memory.buffer).fill(0);
      return d!.memory;
    }
    this.created++;
    return new WebAssembly.Memory(pages);
  }

  /** A call is done with `memory`: kept (to be zeroed) unless it grew. */
  giveBack(pages: MemoryPages, memory: WebAssembly.Memory): void {
    if (memory.buffer.byteLength !== pages.initial * PAGE_BYTES) return;
    this.#dirty.push({ key: keyOf(pages), memory });
  }

  /** Zeroes the memories calls gave back (idle work), within the budget. */
  tidy(): void {
    for (const { key, memory } of this.#dirty) {
      const size = memory.buffer.byteLength;
      if (this.#bytes + size > BUDGET_BYTES) continue;
      new Uint8Array(memory.buffer).fill(0);
      const list = this.#clean.get(key) ?? [];
      this.#clean.set(key, list);
      list.push(memory);
      this.#bytes += size;
    }
    this.#dirty = [];
  }

  /** Drops every memory (tests, and a thread told to give memory back). */
  clear(): void {
    this.#clean.clear();
    this.#dirty = [];
    this.#bytes = 0;
  }
}
