// Decision logs to an HTTP sink the test runs on 127.0.0.1 (a real executor, real uploads): batches
// in OPA's shape, gzipped; a dead sink and a slow sink never change or delay a verdict, the buffer
// stays bounded (the oldest dropped, counted), the loss is reported once, and the sink's return
// brings what was kept; a sink that refuses a batch drops it, counted.
import { describe, expect, it } from 'vitest';
import type { DecisionLogProblem } from '../../src/audit/decision-log.js';
import { internalsOf } from '../../src/executor/internals.js';
import { createExecutor, type Executor } from '../../src/index.js';
import { completions } from '../helpers/async.js';
import { DecisionSink, deadPort } from '../helpers/decision-sink.js';
import { input, printing } from '../helpers/fixture.js';

const SECRET = 'SECRET-in-the-input-91c2';
const js = (name: string, body: string) => ({ type: 'js', name, code: `export default (i) => (${body})` });
const config = {
  hooks: {
    BeforeTool: [
      {
        hooks: [
          js(
            'guard',
            `i.toolInput.command.includes("rm") ? { decision: "deny", reason: "no " + i.toolInput.command } : { decision: "allow" }`,
          ),
          printing({}, { name: 'bg', async: true }),
        ],
      },
    ],
  },
};
const call = (command: string) => input({ toolName: 'Bash', toolInput: { command: `${command} ${SECRET}` } });

async function executor(
  decisionLog: Record<string, unknown>,
): Promise<{ hw: Executor; problems: DecisionLogProblem[] }> {
  const hw = await createExecutor({
    policy: config,
    audit: { decisionLog: decisionLog as never },
    onWarning: () => {},
  });
  const problems: DecisionLogProblem[] = [];
  hw.on('decision-log', (p) => problems.push(p));
  return { hw, problems };
}

const stats = (hw: Executor) => internalsOf(hw).decisionLog()!;

describe('decision logs: batches', () => {
  it("sends full batches at once and the rest at close, in order, in OPA's shape", async () => {
    const sink = await DecisionSink.start();
    const { hw } = await executor({
      url: sink.url,
      maxBatchEvents: 3,
      flushIntervalMs: 3_600_000,
      labels: { region: 'eu' },
    });
    const results = [];
    // The denied calls (rm) leave the async hook unrun: 4 async runs.
    const done = completions(hw, 4);
    for (let i = 0; i < 7; i++)
      results.push(await hw.dispatch('PreToolUse', call(i % 2 ? 'rm' : 'ls'), { tenant: `t${i}` }));
    await done;
    // 7 dispatch events and 4 async runs: three full batches so far, the rest at close.
    await sink.until(() => sink.requests.length >= 3);
    expect(sink.requests.map((r) => r.events.length)).toEqual([3, 3, 3]);
    await hw.close();
    expect(sink.requests.map((r) => r.events.length)).toEqual([3, 3, 3, 2]);
    const req = sink.requests[0]!;
    expect(req.headers['content-encoding']).toBe('gzip');
    expect(req.headers['content-type']).toBe('application/json');
    const dispatches = sink.events.filter((e) => e.result !== undefined);
    expect(dispatches.map((e) => e.tenant)).toEqual(results.map((_, i) => `t${i}`));
    for (const [i, e] of dispatches.entries()) {
      const r = results[i]!;
      expect(e).toMatchObject({ path: 'BeforeTool', result: { decision: r.decision } });
      expect(e.hooks.map((h: { hookId: string; outcome: string }) => [h.hookId, h.outcome])).toEqual(
        r.hooks.filter((h) => h.outcome !== 'not-run').map((h) => [h.id, h.outcome]),
      );
      if (r.decision === 'deny') expect(e.result.decided_by).toBe('guard');
    }
    const runs = sink.events.filter((e) => e.async_id !== undefined);
    expect(runs).toHaveLength(4);
    expect(runs.every((e) => e.hooks.length === 1 && e.hooks[0].asyncId === e.async_id)).toBe(true);
    const ids = sink.events.map((e) => e.decision_id);
    expect(new Set(ids).size).toBe(11);
    expect(new Set(sink.events.map((e) => e.labels.id)).size).toBe(1);
    expect(sink.events[0].labels).toMatchObject({
      app: 'hookwarden',
      region: 'eu',
      version: expect.any(String),
    });
    expect(JSON.stringify(sink.events)).not.toContain(SECRET);
    expect(stats(hw)).toEqual({ sent: 11, dropped: 0, failedUploads: 0, buffered: 0 });
  });

  it('sends a part batch after flushIntervalMs, uncompressed when gzip is off', async () => {
    const sink = await DecisionSink.start();
    const { hw } = await executor({ url: sink.url, flushIntervalMs: 20, gzip: false });
    await hw.dispatch('BeforeTool', call('ls'));
    await sink.until(() => sink.events.some((e) => e.result !== undefined));
    expect(sink.requests[0]!.headers['content-encoding']).toBeUndefined();
    await hw.close();
  });
});

describe('decision logs: a dead sink', () => {
  it('never changes a verdict, keeps the newest events within the bound, says so once, and delivers on return', async () => {
    const port = await deadPort();
    const url = `http://127.0.0.1:${port}/logs`;
    const { hw, problems } = await executor({
      url,
      maxBufferedEvents: 5,
      flushIntervalMs: 5,
      retryDelayMs: 5,
      maxRetryDelayMs: 20,
    });
    const plain = await createExecutor({ policy: config, onWarning: () => {} });
    const failing = new Promise<void>((resolve) =>
      hw.on('decision-log', (p) => p.kind === 'failing' && resolve()),
    );
    let queued = 0;
    for (let i = 0; i < 12; i++) {
      const cmd = i % 3 ? 'ls' : 'rm';
      const [a, b] = [
        await hw.dispatch('BeforeTool', call(cmd), { tenant: `t${i}` }),
        await plain.dispatch('BeforeTool', call(cmd), { tenant: `t${i}` }),
      ];
      expect([a.decision, a.decidedBy, a.reason]).toEqual([b.decision, b.decidedBy, b.reason]);
      queued += a.hooks.filter((h) => h.outcome === 'queued').length;
      if (i === 0) await failing;
    }
    await plain.close();
    expect(stats(hw).buffered).toBeLessThanOrEqual(5);
    expect(stats(hw).dropped).toBeGreaterThan(0);
    expect(problems.filter((p) => p.kind === 'failing')).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: 'failing', sink: url });
    const recovered = new Promise<void>((resolve) =>
      hw.on('decision-log', (p) => p.kind === 'recovered' && resolve()),
    );
    const sink = await DecisionSink.start(port);
    await recovered;
    await sink.until(() => sink.events.filter((e) => e.result !== undefined).some((e) => e.tenant === 't11'));
    const tenants = sink.events.filter((e) => e.result !== undefined).map((e) => e.tenant);
    // The newest were kept, in order; the oldest were dropped.
    expect(tenants.at(-1)).toBe('t11');
    expect(tenants).not.toContain('t0');
    await hw.close();
    const s = stats(hw);
    // Every event is sent or counted as dropped: one per dispatch, one per async run.
    expect(s.sent + s.dropped).toBe(12 + queued);
  });

  it('reports the loss through onWarning when nobody listens', async () => {
    const url = `http://127.0.0.1:${await deadPort()}/logs`;
    const warnings: string[] = [];
    let warned!: () => void;
    const seen = new Promise<void>((r) => (warned = r));
    const hw = await createExecutor({
      config,
      audit: { decisionLog: { url, flushIntervalMs: 5, headers: { authorization: 'Bearer HEADER-SECRET' } } },
      onWarning: (d) => {
        warnings.push(`${d.file} ${d.path} ${d.message}`);
        warned();
      },
    });
    expect((await hw.dispatch('BeforeTool', call('rm'))).decision).toBe('deny');
    await seen;
    expect(warnings[0]).toContain(`${url} audit.decisionLog decision-log upload failed`);
    expect(warnings.join('\n')).not.toContain('HEADER-SECRET');
    await hw.close();
  });
});

describe('decision logs: a slow sink', () => {
  it('answers every dispatch while an upload hangs; a timed-out upload is sent again', async () => {
    const sink = await DecisionSink.start();
    sink.mode = 'hold';
    const { hw, problems } = await executor({
      url: sink.url,
      flushIntervalMs: 5,
      timeoutMs: 200,
      retryDelayMs: 5,
    });
    await hw.dispatch('BeforeTool', call('ls'), { tenant: 'first' });
    await sink.until(() => sink.requests.length === 1);
    // The upload hangs (the sink answers nothing until release()): dispatches go on.
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(await hw.dispatch('BeforeTool', call('rm'), { tenant: `t${i}` }));
    expect(answers.every((a) => a.decision === 'deny')).toBe(true);
    expect(stats(hw).sent).toBe(0);
    // It timed out: the same batch goes again.
    await sink.until(() => sink.requests.length >= 2);
    expect(sink.requests[1]!.events[0].decision_id).toBe(sink.requests[0]!.events[0].decision_id);
    expect(problems[0]).toMatchObject({
      kind: 'failing',
      message: expect.stringContaining('no answer within 200 ms'),
    });
    sink.mode = 200;
    sink.release();
    await sink.until(() => new Set(sink.events.filter((e) => e.result).map((e) => e.tenant)).size === 6);
    await hw.close();
  });

  it('a forced close (an aborted signal) does not wait for a hanging sink: what is left is dropped', async () => {
    const sink = await DecisionSink.start();
    sink.mode = 'hold';
    const { hw } = await executor({
      url: sink.url,
      flushIntervalMs: 5,
      maxBatchEvents: 1,
      timeoutMs: 600_000,
    });
    await hw.dispatch('BeforeTool', call('rm'));
    await hw.dispatch('BeforeTool', call('rm'));
    await sink.until(() => sink.requests.length === 1);
    // The first batch hangs for ten minutes; the close does not wait for it nor send the second.
    await hw.close({ signal: AbortSignal.abort() });
    expect(stats(hw)).toMatchObject({ sent: 0, buffered: 0 });
    expect(stats(hw).dropped).toBeGreaterThanOrEqual(1);
    sink.release();
  });

  it('drops a batch the sink refuses (400), counted and said', async () => {
    const sink = await DecisionSink.start();
    sink.mode = 400;
    const { hw, problems } = await executor({ url: sink.url, flushIntervalMs: 5 });
    expect((await hw.dispatch('BeforeTool', call('ls'))).decision).toBe('allow');
    await sink.until(() => sink.requests.length === 1);
    await hw.close();
    expect(problems.find((p) => p.kind === 'refused')?.message).toContain('HTTP 400');
    expect(stats(hw).dropped).toBeGreaterThan(0);
  });
});

describe('decision logs: options', () => {
  it.each([
    [{ url: 'ftp://x/logs' }, 'decisionLog.url: expected an http or https URL'],
    [{ url: 'https://user:pw@x/logs' }, 'put the credentials in decisionLog.headers'],
    [{ url: 'https://x/logs', batchSize: 3 }, 'decisionLog.batchSize: unknown option'],
    [{ url: 'https://x/logs', maxBatchEvents: 0 }, 'decisionLog.maxBatchEvents'],
    [{ url: 'https://x/logs', headers: { 'bad header': 'HEADER-SECRET' } }, 'decisionLog.headers'],
  ])('refuses %j', async (decisionLog, message) => {
    const err = await createExecutor({ config, audit: { decisionLog: decisionLog as never } }).catch(
      (e) => e,
    );
    expect(err.code).toBe('invalid_options');
    expect(err.message).toContain(message);
    expect(err.message).not.toContain('HEADER-SECRET');
  });
});
