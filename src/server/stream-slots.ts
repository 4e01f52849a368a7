// Open event streams (GET /v1/events) are counted: each holds a connection to the client and, in Redis
// mode, one to Redis. One tenant may hold `perTenant` of them and the server `total`, so no tenant can
// use up the server's (or the shared Redis's) connections for the others.
export class StreamSlots {
  #total = 0;
  readonly #perTenant = new Map<string, number>();

  constructor(
    readonly total: number,
    readonly perTenant: number,
  ) {}

  /** Takes a slot for `tenant` (undefined: dispatches without a tenant); returns its release, or which cap is reached. */
  take(tenant: string | undefined): (() => void) | 'server' | 'tenant' {
    const key = tenant ?? '';
    const mine = this.#perTenant.get(key) ?? 0;
    if (mine >= this.perTenant) return 'tenant';
    if (this.#total >= this.total) return 'server';
    this.#total++;
    this.#perTenant.set(key, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const left = (this.#perTenant.get(key) ?? 1) - 1;
      if (left === 0) this.#perTenant.delete(key);
      else this.#perTenant.set(key, left);
    };
  }

  get open(): number {
    return this.#total;
  }
}
