// A tenant's scheduling state is forgotten once it is idle, so a service that sees many tenants over
// its life keeps state only for the recent ones; what a tenant is still owed (work queued or running,
// a reserve, a CPU window) is never forgotten.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TenantQueues } from '../../src/pool/tenant-queues.js';

/** One item of `tenant` queued, taken, started and finished. */
function serve(q: TenantQueues<string>, tenant: string, ranMs = 0): void {
  expect(q.push(tenant, `${tenant}-item`)).toBe(true);
  const got = q.next();
  expect(got?.tenant).toBe(tenant);
  q.started(tenant);
  q.finished(tenant, 1, ranMs);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('idle tenants are forgotten', () => {
  it('10 000 tenants served one after the other leave a bounded number of states', () => {
    const q = new TenantQueues<string>(() => ({}));
    for (let i = 0; i < 10_000; i++) serve(q, `t${i}`);
    expect(q.counts().length).toBeLessThanOrEqual(128);
  });

  it('a tenant with work queued or running is kept', () => {
    const q = new TenantQueues<string>((t) => (t === 'busy' ? { maxConcurrent: 1 } : {}));
    // busy: one item running, one queued behind its maxConcurrent of 1.
    q.push('busy', 'b1');
    q.push('busy', 'b2');
    expect(q.next()).toEqual({ tenant: 'busy', items: ['b1'] });
    q.started('busy');
    for (let i = 0; i < 1_000; i++) serve(q, `t${i}`);
    expect(q.counts().find((c) => c.tenant === 'busy')).toEqual({ tenant: 'busy', queued: 1, running: 1 });
    q.finished('busy');
    expect(q.next()).toEqual({ tenant: 'busy', items: ['b2'] });
  });

  it('a CPU budget spent in the current window survives a sweep', () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date'] });
    const limits = { cpuMsPerWindow: 10, windowMs: 60_000 };
    const q = new TenantQueues<string>((t) => (t === 'greedy' ? limits : {}));
    serve(q, 'greedy', 50);
    // Many other tenants come and go: sweeps run, within greedy's window.
    for (let i = 0; i < 1_000; i++) serve(q, `t${i}`);
    expect(q.push('greedy', 'again')).toBe(true);
    expect(q.next()).toBeUndefined(); // still over its budget: waits for the next window
    vi.setSystemTime(1_000_000 + 60_001);
    expect(q.next()?.tenant).toBe('greedy');
    q.drain();
  });

  it("a tenant's fair-share reserve survives a sweep until it ends", () => {
    vi.useFakeTimers({ now: 2_000_000, toFake: ['Date'] });
    const q = new TenantQueues<string>(() => ({}), undefined, { fair: { capacity: 4, idleMs: 5_000 } });
    for (let i = 0; i < 3; i++) q.push('quiet', `q${i}`);
    for (let i = 0; i < 3; i++) {
      q.next();
      q.started('quiet');
    }
    for (let i = 0; i < 3; i++) q.finished('quiet');
    for (let i = 0; i < 200; i++) serve(q, `t${i}`);
    expect(q.counts().some((c) => c.tenant === 'quiet')).toBe(true);
    vi.setSystemTime(2_000_000 + 5_001);
    for (let i = 200; i < 400; i++) serve(q, `t${i}`);
    expect(q.counts().some((c) => c.tenant === 'quiet')).toBe(false);
  });
});
