// Async hooks on the in-process queue (the default): they run after the dispatch has answered,
// never change its verdict, and end with an `async.completed` event, a `rewake` event for an
// asyncRewake hook that said no, and an audit record linked to the dispatch's `queued` record by
// asyncId. Limits: maxAsyncQueued (queue_full), tenantRatePerSec (rate_limited). close() aborts
// what is left, or drains it first with `drainMs`. Every wait is on an event or a FIFO.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AsyncCompletedEvent, AuditRecord, RewakeEvent } from '../../src/index.js';
import { createExecutor, isHookwardenError } from '../../src/index.js';
import { completions } from '../helpers/async.js';
import { waitingPair } from '../helpers/fifo.js';
import { hooksOn, input, printing, tempDir, withExecutor } from '../helpers/fixture.js';

const ev = () => input({ toolName: 'Bash', toolInput: { command: 'ls' } });

describe('async hooks (embedded queue)', () => {
  it('answer before the hook runs; the hook cannot change the verdict; completion, rewake and audit follow', async () => {
    const { hook, lines, feed } = waitingPair(tempDir(), { decision: 'deny', reason: 'secrets in the diff' });
    const records: AuditRecord[] = [];
    const config = hooksOn('BeforeTool', [
      printing({ decision: 'allow', reason: 'sync ok' }, { name: 'sync' }),
      {
        ...hook,
        name: 'bg',
        asyncRewake: true,
      },
    ]);
    await withExecutor({ config, audit: (r) => records.push(r) }, async (hw) => {
      const rewakes: RewakeEvent[] = [];
      hw.on('rewake', (e) => rewakes.push(e));
      const done = completions(hw);
      const result = await hw.dispatch('BeforeTool', ev(), { tenant: undefined });
      // The dispatch answered while the async hook has not even started (it waits on a FIFO we hold).
      expect(result.decision).toBe('allow');
      const queued = result.hooks.find((h) => h.outcome === 'queued')!;
      expect(queued.asyncId).toMatch(/^[0-9a-f-]{36}$/);
      expect(await lines.next()).toBe('started');
      feed.send();
      const [c] = await done;
      expect(c).toMatchObject({
        asyncId: queued.asyncId,
        outcome: 'deny',
        attempts: 1,
        sessionId: 's1',
        event: 'BeforeTool',
      });
      expect(c!.latencyMs).toBeGreaterThan(0);
      expect(rewakes).toEqual([
        expect.objectContaining({
          asyncId: queued.asyncId,
          reason: 'secrets in the diff',
          hookId: c!.hookId,
        }),
      ]);
      const linked = records.filter((r) => r.asyncId === queued.asyncId);
      expect(linked.map((r) => r.outcome)).toEqual(['queued', 'deny']);
      expect(linked[1]!.attempts).toBe(1);
    });
    lines.close();
    feed.close();
  });

  it('exit 2 of an asyncRewake hook wakes; an async hook without asyncRewake never does', async () => {
    const config = hooksOn('BeforeTool', [
      { type: 'command', command: 'echo stop this >&2; exit 2', name: 'wake', asyncRewake: true },
      { type: 'command', command: 'echo quiet >&2; exit 2', name: 'quiet', async: true },
    ]);
    await withExecutor({ config }, async (hw) => {
      const rewakes: RewakeEvent[] = [];
      hw.on('rewake', (e) => rewakes.push(e));
      const done = completions(hw, 2);
      const r = await hw.dispatch('BeforeTool', ev());
      expect(r.decision).toBe('passthrough');
      expect(r.hooks.map((h) => h.outcome)).toEqual(['queued', 'queued']);
      const cs = await done;
      expect(cs.map((c) => c.outcome).sort()).toEqual(['deny', 'deny']);
      expect(rewakes).toHaveLength(1);
      expect(rewakes[0]!.reason).toContain('stop this');
    });
  });

  it('JS hooks run async too, with the input as it stood when queued', async () => {
    const code = `export default (input) => ({ decision: 'deny', reason: 'saw ' + input.toolInput.command })`;
    const config = hooksOn('BeforeTool', [{ type: 'js', code, name: 'js', asyncRewake: true }]);
    await withExecutor({ config }, async (hw) => {
      const wake = new Promise<RewakeEvent>((resolve) => hw.on('rewake', resolve));
      const r = await hw.dispatch('BeforeTool', ev());
      expect(r.hooks[0]!.outcome).toBe('queued');
      expect((await wake).reason).toBe('saw ls');
    });
  });

  it('a failed run is retried with its backoff, then completes with the attempts made', async () => {
    const dir = tempDir();
    const counter = join(dir, 'count');
    // Fails on the first attempt, succeeds on the second.
    const command = `echo x >> '${counter}'; [ "$(wc -l < '${counter}')" -ge 2 ] || exit 1; echo '{}'`;
    const config = hooksOn('BeforeTool', [
      {
        type: 'command',
        command,
        name: 'flaky',
        async: true,
        retries: 3,
        retryBackoffMs: 1,
        retryBackoff: 'fixed',
      },
    ]);
    await withExecutor({ config }, async (hw) => {
      const done = completions(hw);
      await hw.dispatch('BeforeTool', ev());
      const [c] = await done;
      expect(c).toMatchObject({ outcome: 'proceed', attempts: 2 });
      expect(readFileSync(counter, 'utf8').trim().split('\n')).toHaveLength(2);
    });
  });

  it('limits.maxAsyncQueued: past it the hook is recorded queue_full and not run', async () => {
    const { hook, lines, feed } = waitingPair(tempDir());
    const config = hooksOn('BeforeTool', [{ ...hook, name: 'bg', async: true }]);
    await withExecutor({ config, limits: { maxAsyncQueued: 1 } }, async (hw) => {
      const first = await hw.dispatch('BeforeTool', ev());
      expect(first.hooks[0]!.outcome).toBe('queued');
      await lines.next();
      const second = await hw.dispatch('BeforeTool', ev());
      expect(second.hooks[0]).toMatchObject({
        outcome: 'not-run',
        error: { code: 'queue_full', details: { limit: 1 } },
      });
      const done = completions(hw);
      feed.send();
      await done;
      // Its place is free again.
      const third = await hw.dispatch('BeforeTool', ev());
      expect(third.hooks[0]!.outcome).toBe('queued');
      await lines.next();
      feed.send();
    });
    lines.close();
    feed.close();
  });

  it('close() aborts queued and running async hooks, each with its completion; close({drainMs}) lets them finish', async () => {
    const { hook, lines, feed } = waitingPair(tempDir());
    const config = hooksOn('BeforeTool', [{ ...hook, name: 'bg', async: true }]);
    const records: AuditRecord[] = [];
    const hw = await createExecutor({
      config,
      audit: (r) => records.push(r),
      queue: { concurrency: 1 },
      onWarning: () => {},
    });
    const ended: AsyncCompletedEvent[] = [];
    hw.on('async.completed', (e) => ended.push(e));
    await hw.dispatch('BeforeTool', ev());
    await hw.dispatch('BeforeTool', ev());
    await lines.next(); // one runs, one waits (concurrency 1)
    await hw.close();
    expect(ended.map((e) => e.outcome).sort()).toEqual(['error', 'not-run']);
    expect(ended.every((e) => e.error !== undefined)).toBe(true);
    expect(records.filter((r) => r.asyncId !== undefined && r.outcome !== 'queued')).toHaveLength(2);

    const hw2 = await createExecutor({ config, onWarning: () => {} });
    const ended2: AsyncCompletedEvent[] = [];
    hw2.on('async.completed', (e) => ended2.push(e));
    await hw2.dispatch('BeforeTool', ev());
    await lines.next();
    const closing = hw2.close({ drainMs: 60_000 });
    feed.send();
    await closing;
    expect(ended2.map((e) => e.outcome)).toEqual(['allow']);
    await expect(hw2.dispatch('BeforeTool', ev())).rejects.toMatchObject({ code: 'closed' });
    lines.close();
    feed.close();
  });

  it('limits.tenantRatePerSec: over it dispatch() rejects rate_limited with retryAfterMs; other tenants are unaffected', async () => {
    const config = { ...hooksOn('BeforeTool', []), tenants: { acme: {}, globex: {} } };
    await withExecutor({ config, limits: { tenantRatePerSec: 2 } }, async (hw) => {
      const runs = await Promise.allSettled(
        Array.from({ length: 6 }, () => hw.dispatch('BeforeTool', ev(), { tenant: 'acme' })),
      );
      const refused = runs.filter((r) => r.status === 'rejected');
      // 2 per second: at most 4 if the second turned while they ran, at least 2 refused.
      expect(refused.length).toBeGreaterThanOrEqual(2);
      for (const r of refused) {
        const err = (r as PromiseRejectedResult).reason;
        expect(isHookwardenError(err) && err.code).toBe('rate_limited');
        expect(err.retryAfterMs).toBeGreaterThan(0);
        expect(err.retryAfterMs).toBeLessThanOrEqual(1000);
      }
      await expect(hw.dispatch('BeforeTool', ev(), { tenant: 'globex' })).resolves.toBeDefined();
    });
  });

  it('a queued hook runs under its tenant: hook.started names it (maxConcurrent and the CPU budget apply)', async () => {
    const config = {
      ...hooksOn('BeforeTool', []),
      tenants: { acme: hooksOn('BeforeTool', [printing({}, { name: 'bg', async: true })]) },
    };
    await withExecutor({ config }, async (hw) => {
      const started = new Promise<string | undefined>((resolve) =>
        hw.on('hook.started', (e) => resolve(e.tenant)),
      );
      const done = completions(hw);
      await hw.dispatch('BeforeTool', ev(), { tenant: 'acme' });
      expect(await started).toBe('acme');
      expect((await done)[0]!.tenant).toBe('acme');
    });
  });

  it("a running async hook holds one of its tenant's maxConcurrent places: with 1 place and 1 queue slot, one of two sync hooks is refused", async () => {
    const { hook, lines, feed } = waitingPair(tempDir());
    const acme = {
      hooks: {
        BeforeTool: [{ hooks: [{ ...hook, name: 'bg', async: true }] }],
        AfterTool: [{ hooks: [printing({}, { name: 'sync' })] }],
      },
      limits: { maxConcurrent: 1, maxQueued: 1 },
    };
    await withExecutor({ config: { ...hooksOn('BeforeTool', []), tenants: { acme } } }, async (hw) => {
      await hw.dispatch('BeforeTool', ev(), { tenant: 'acme' });
      expect(await lines.next()).toBe('started'); // the async hook holds acme's one place
      const after = { ...ev(), toolResponse: {} };
      const first = hw.dispatch('AfterTool', after, { tenant: 'acme' });
      const second = hw.dispatch('AfterTool', after, { tenant: 'acme' });
      // One waits in acme's one queue slot; the other is refused at once, so it answers first.
      const refused = await Promise.race([first, second]);
      expect(refused.hooks[0]!.error?.code).toBe('queue_full');
      feed.send();
      const codes = (await Promise.all([first, second])).map(
        (r) => r.hooks[0]!.error?.code ?? r.hooks[0]!.outcome,
      );
      expect(codes.sort()).toEqual(['proceed', 'queue_full']);
    });
    lines.close();
    feed.close();
  });

  it('retry fields on a hook that is not async are reported and ignored', async () => {
    const config = hooksOn('BeforeTool', [printing({}, { name: 'x', retries: 2 })]);
    await withExecutor({ config }, async (hw, warnings) => {
      expect(warnings.join('\n')).toMatch(/retries.*async hooks only/);
      expect((await hw.dispatch('BeforeTool', ev())).hooks[0]!.outcome).toBe('proceed');
    });
  });
});
