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
