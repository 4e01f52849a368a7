// Which worker threads (QuickJS, wasm) hold which hook specs (a spec goes to each worker once; tasks refer to
// it by key). Learned from the workers' answers; forgotten when a worker says it dropped one.

/** Spec keys remembered before the memory is cleared (specs are then sent again). */
const MAX_KNOWN_SPECS = 10_000;

export class SpecHolders {
  readonly #holders = new Map<string, Set<number>>();

  /** The specs a batch carries: those some live worker thread is not known to hold (all, if forced). */
  toSend<S extends { readonly key: string }>(
    tasks: readonly { readonly specs: readonly S[]; readonly force: boolean }[],
    threads: readonly { readonly threadId: number }[],
  ): { specs?: S[] } {
    let out: Map<string, S> | undefined;
    for (const t of tasks) {
      for (const s of t.specs) {
        const holders = this.#holders.get(s.key);
        if (!t.force && holders !== undefined && threads.every((w) => holders.has(w.threadId))) continue;
        out ??= new Map();
        out.set(s.key, s);
      }
    }
    return out === undefined ? {} : { specs: [...out.values()] };
  }

  /** `threadId` ran a task with `key`: it holds the spec. */
  add(key: string, threadId: number): void {
    let holders = this.#holders.get(key);
    if (holders === undefined) {
      if (this.#holders.size >= MAX_KNOWN_SPECS) this.#holders.clear();
      holders = new Set();
      this.#holders.set(key, holders);
    }
    holders.add(threadId);
  }

  /** A worker dropped `key`: send it again. */
  forget(key: string): void {
    this.#holders.delete(key);
  }
}
