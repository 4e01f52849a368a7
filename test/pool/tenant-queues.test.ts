// Fair scheduling across tenants, tested by the order in which turns are granted (no timings).
import { describe, expect, it } from 'vitest';
import { TenantQueues } from '../../src/pool/tenant-queues.js';
import { Turns } from '../../src/pool/turns.js';

/** Grants turns one at a time and returns the tenant order in which they were granted. */
async function grantOrder(turns: Turns, requests: string[]): Promise<string[]> {
  const order: string[] = [];
  const all = requests.map((t) =>
    turns.acquire(t).then((r) => {
      if (r !== 'granted') return;
      order.push(t);
      // Each holder gives its turn back on the next tick: one runs at a time.
      setImmediate(() => turns.release(t));
    }),
  );
  await Promise.all(all);
  return order;
}

describe('fair scheduling', () => {
  it('gives a tenant that arrives after a flood its turn within the next round, not after the flood', async () => {
    const turns = new Turns(1);
    const requests = [...Array.from({ length: 10 }, () => 'A'), 'B', 'C'];
    const order = await grantOrder(turns, requests);
    expect(order).toHaveLength(12);
    // FIFO would run B 11th and C 12th; the rotation serves them within the first round.
    expect(order.indexOf('B')).toBeLessThanOrEqual(2);
    expect(order.indexOf('C')).toBeLessThanOrEqual(3);
    expect(order.slice(0, 4).sort()).toEqual(['A', 'A', 'B', 'C']);
  });

  it('serves tenants by weight', async () => {
    const turns = new Turns(1, (t) => (t === 'gold' ? { weight: 3 } : {}));
    const order = await grantOrder(turns, [...Array(6).fill('gold'), ...Array(6).fill('free')]);
    expect(order.slice(0, 8)).toEqual(['gold', 'gold', 'gold', 'free', 'gold', 'gold', 'gold', 'free']);
  });

  it('caps a tenant at maxConcurrent while others use the rest', async () => {
    const turns = new Turns(3, (t) => (t === 'A' ? { maxConcurrent: 1 } : {}));
    const granted: string[] = [];
    for (const t of ['A', 'A', 'A', 'B', 'B']) void turns.acquire(t).then(() => granted.push(t));
    await new Promise((r) => setImmediate(r));
    expect(granted.sort()).toEqual(['A', 'B', 'B']);
    expect(turns.queued).toBe(2);
    turns.close();
  });

  it('refuses past maxQueued with queue_full, per tenant', async () => {
    const turns = new Turns(1, (t) => (t === 'A' ? { maxQueued: 2 } : {}));
    const results: string[] = [];
    for (const [i, t] of ['A', 'A', 'A', 'A', 'B'].entries()) {
      results[i] = 'waiting';
      void turns.acquire(t).then((turn) => {
        results[i] = turn;
      });
    }
    // Turns are granted or refused at once; what is left after one turn of the loop waits.
    await new Promise((r) => setImmediate(r));
    // The first A runs; two wait; the fourth A is refused; B waits (its own queue).
    expect(results).toEqual(['granted', 'waiting', 'waiting', 'queue_full', 'waiting']);
    turns.close();
  });

  it('holds back a tenant that used its CPU budget for the window', () => {
    const q = new TenantQueues<string>((t) => (t === 'A' ? { cpuMsPerWindow: 100, windowMs: 60_000 } : {}));
    q.push('A', 'a1');
    q.push('A', 'a2');
    q.push('B', 'b1');
    const first = q.next();
    expect(first).toEqual({ tenant: 'A', items: ['a1'] });
    q.started('A');
    q.finished('A', 1, 150);
    expect(q.next()).toEqual({ tenant: 'B', items: ['b1'] });
    expect(q.next()).toBeUndefined();
    expect(q.size).toBe(1);
  });

  it("batches a tenant's items while their summed cost fits the budget, the first always", () => {
    const q = new TenantQueues<number>(() => ({}));
    for (const ms of [0.5, 0.7, 0.6, 0.1, 5, 0.1]) q.push('A', ms);
    const batch = { cost: (ms: number) => ms, budget: 2 };
    expect(q.next(8, batch)?.items).toEqual([0.5, 0.7, 0.6, 0.1]);
    // A costly item goes alone: it is first, and nothing more fits after it.
    expect(q.next(8, batch)?.items).toEqual([5]);
    expect(q.next(8, batch)?.items).toEqual([0.1]);
    q.push('A', 0.1);
    q.push('A', 0.1);
    q.push('A', 0.1);
    // `max` still bounds the batch.
    expect(q.next(2, batch)?.items).toEqual([0.1, 0.1]);
  });

  it('ends waits on abort and on close', async () => {
    const turns = new Turns(1);
    await turns.acquire('A');
    const ac = new AbortController();
    const aborted = turns.acquire('B', ac.signal);
    const closed = turns.acquire('C');
    ac.abort();
    expect(await aborted).toBe('aborted');
    turns.close();
    expect(await closed).toBe('closed');
    expect(await turns.acquire('D')).toBe('closed');
  });
});

/** Acquires `n` turns of `tenant` and returns how many were granted so far, and the promises. */
function acquireMany(turns: Turns, tenant: string, n: number) {
  const granted: string[] = [];
  const all = Array.from({ length: n }, () =>
    turns.acquire(tenant).then((r) => {
      if (r === 'granted') granted.push(tenant);
      return r;
    }),
  );
  return { granted, all };
}

const tick = () => new Promise((r) => setImmediate(r));
/** A reserve long enough that no pause of a loaded machine ends it mid-test. */
const LONG = { fairShareIdleMs: 600_000 };

describe('fair share (work-conserving reserves)', () => {
  it('lets a lone tenant use the whole lane', async () => {
    const turns = new Turns(4, () => ({}), LONG);
    const a = acquireMany(turns, 'A', 6);
    await tick();
    expect(a.granted).toHaveLength(4);
    expect(turns.queued).toBe(2);
    turns.close();
  });

  it('keeps a recently active tenant its slot: a flood takes the rest, not that one', async () => {
    const turns = new Turns(4, () => ({}), LONG);
    // The quiet tenant ran one hook and is between hooks.
    expect(await turns.acquire('quiet')).toBe('granted');
    turns.release('quiet');
    const flood = acquireMany(turns, 'flood', 10);
    await tick();
    expect(flood.granted).toHaveLength(3);
    // Its next hook starts at once, though the flood has 7 waiting.
    expect(await turns.acquire('quiet')).toBe('granted');
    expect(turns.running).toBe(4);
    turns.close();
  });

  it('without it (fairShareIdleMs 0), the flood takes every slot and the quiet tenant waits', async () => {
    const turns = new Turns(4, () => ({}), { fairShareIdleMs: 0 });
    expect(await turns.acquire('quiet')).toBe('granted');
    turns.release('quiet');
    const flood = acquireMany(turns, 'flood', 10);
    await tick();
    expect(flood.granted).toHaveLength(4);
    let quiet = 'waiting';
    void turns.acquire('quiet').then((r) => (quiet = r));
    await tick();
    expect(quiet).toBe('waiting');
    turns.close();
  });

  it('reserves no more than a tenant recently used, and no more than its share', async () => {
    const turns = new Turns(8, () => ({}), LONG);
    // B used 2 slots at its peak: the flood leaves it 2 of 8.
    const b = acquireMany(turns, 'B', 2);
    await tick();
    turns.release('B');
    turns.release('B');
    const a = acquireMany(turns, 'A', 20);
    await tick();
    expect(a.granted).toHaveLength(6);
    // C floods too: the three split the lane as the slots free (A gives some back).
    const c = acquireMany(turns, 'C', 20);
    for (let i = 0; i < 6; i++) turns.release('A');
    await tick();
    // Shares of 8/3: B keeps its 2 (unused); A and C share the other 6, each at least 2.
    expect(turns.running).toBe(6);
    const running = Object.fromEntries(turns.counts().map((x) => [x.tenant, x.running]));
    expect(running.B).toBe(0);
    expect(running.A).toBeGreaterThanOrEqual(2);
    expect(running.C).toBeGreaterThanOrEqual(2);
    expect(c.granted.length).toBe(running.C);
    // B's next hooks start at once.
    expect(await Promise.all([turns.acquire('B'), turns.acquire('B')])).toEqual(['granted', 'granted']);
    void b;
    turns.close();
  });

  it('splits the lane by weight between two floods', async () => {
    const turns = new Turns(8, (t) => (t === 'gold' ? { weight: 3 } : {}), LONG);
    const gold = acquireMany(turns, 'gold', 30);
    await tick();
    expect(gold.granted).toHaveLength(8);
    const free = acquireMany(turns, 'free', 30);
    // Each of gold's turns comes back once; the freed slots go to free up to its share (8 × 1/4).
    for (let i = 0; i < 8; i++) turns.release('gold');
    await tick();
    expect(free.granted).toHaveLength(2);
    expect(gold.granted).toHaveLength(14);
    turns.close();
  });

  it("gives an idle tenant's reserve back when it ends, without waiting for a release", async () => {
    const turns = new Turns(2, () => ({}), { fairShareIdleMs: 50 });
    expect(await turns.acquire('quiet')).toBe('granted');
    turns.release('quiet');
    const flood = acquireMany(turns, 'flood', 2);
    await tick();
    // Until quiet's reserve ends, the second slot stays free for it; then the flood's timer wakes.
    await Promise.all(flood.all);
    expect(flood.granted).toHaveLength(2);
    turns.close();
  });
});

describe('default queue bound (limits.tenantMaxQueued)', () => {
  it("refuses past it with queue_full; a tenant's own maxQueued replaces it", async () => {
    const turns = new Turns(1, (t) => (t === 'roomy' ? { maxQueued: 4 } : {}), { tenantMaxQueued: 2 });
    const settle = (t: string) =>
      Promise.race([turns.acquire(t), new Promise((r) => setTimeout(() => r('waiting'), 50))]);
    expect(await Promise.all(['A', 'A', 'A', 'A'].map(settle))).toEqual([
      'granted',
      'waiting',
      'waiting',
      'queue_full',
    ]);
    expect(await Promise.all(Array.from({ length: 5 }, () => settle('roomy')))).toEqual([
      'waiting',
      'waiting',
      'waiting',
      'waiting',
      'queue_full',
    ]);
    turns.close();
  });

  it('is unbounded at 0', () => {
    const q = new TenantQueues<number>(() => ({}), undefined, { defaultMaxQueued: 0 });
    for (let i = 0; i < 10_000; i++) expect(q.push('A', i)).toBe(true);
  });
});
