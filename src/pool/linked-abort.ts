// One AbortController that follows several signals, with cleanup (AbortSignal.any keeps listeners
// alive on long-lived signals in Node 20, so the links are removed explicitly).

export class LinkedAbort {
  readonly controller = new AbortController();
  readonly #links: [AbortSignal, () => void][] = [];

  constructor(...signals: (AbortSignal | undefined)[]) {
    for (const s of signals) {
      if (s === undefined) continue;
      if (s.aborted) {
        this.controller.abort(s.reason);
        continue;
      }
      const onAbort = () => this.controller.abort(s.reason);
      s.addEventListener('abort', onAbort, { once: true });
      this.#links.push([s, onAbort]);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  dispose(): void {
    for (const [s, fn] of this.#links) s.removeEventListener('abort', fn);
    this.#links.length = 0;
  }
}
