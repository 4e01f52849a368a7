// Draining `hookwarden serve` with a dispatch in flight: the hook waits on a FIFO the test controls,
// so every step waits on an event (a line the hook wrote, a log line the server wrote), never a sleep.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FifoFeed, FifoLines, mkfifo, waitingHook } from '../helpers/fifo.js';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';
import { processesWithEnv } from '../helpers/processes.js';
import { get, post, startServe, writeAuthFile } from '../helpers/serve.js';

function setup(name: string) {
  const dir = tempDir(`hw-drain-${name}-`);
  const started = mkfifo(dir, 'started');
  const release = mkfifo(dir, 'release');
  const config = writeConfig(dir, 'hooks.json', {
    ...hooksOn('BeforeTool', [
      { name: 'waits', ...waitingHook(started, release), env: { DRAIN_TEST: name } },
    ]),
  });
  const auth = writeAuthFile(dir, ['admin']);
  return { dir, started, release, config, auth, audit: join(dir, 'audit.jsonl') };
}

const isDraining = (l: Record<string, unknown>) => l.msg === 'draining';

/** Waits until no hook process of this test (its DRAIN_TEST marker) is left; returns what is left. */
async function settled(name: string, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = processesWithEnv('DRAIN_TEST', name);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('drain on SIGTERM or SIGINT', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s: readyz and new dispatches answer 503, the dispatch in flight finishes, the audit has its record, exit 0',
    async (signal) => {
      const f = setup(signal);
      const s = await startServe([
        '-c',
        f.config,
        '--listen',
        '127.0.0.1:0',
        '--auth',
        f.auth.path,
        '--audit',
        f.audit,
      ]);
      const token = f.auth.tokens.admin!;
      const started = new FifoLines(f.started);
      const release = new FifoFeed(f.release);
      try {
        const inFlight = post(`${s.url}/v1/dispatch/BeforeTool`, token, { toolName: 'Bash' });
        expect(await started.next()).toBe('started');
        s.child.kill(signal);
        await s.waitForLog(isDraining);
        const ready = await get(`${s.url}/readyz`);
        expect(ready.status).toBe(503);
        expect(ready.body.error.code).toBe('draining');
        const late = await post(`${s.url}/v1/dispatch/BeforeTool`, token, { toolName: 'Bash' });
        expect(late.status).toBe(503);
        expect(late.body.error.code).toBe('draining');
        expect(late.headers.get('connection')).toBe('close');
        expect((await get(`${s.url}/healthz`)).status).toBe(200);
        release.send();
        const answer = await inFlight;
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ decision: 'allow', decidedBy: 'waits' });
        const exit = await s.done;
        expect(exit.code).toBe(0);
        const records = readFileSync(f.audit, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(records).toHaveLength(1);
        expect(records[0]).toMatchObject({ event: 'BeforeTool', hookId: 'waits', outcome: 'allow' });
        expect(s.logs().map((l) => l.msg)).toEqual(expect.arrayContaining(['draining', 'stopped']));
      } finally {
        started.close();
        release.close();
      }
    },
  );

  it('aborts the dispatches still running at --drain-timeout: they answer interrupted (deny), and it exits 0', async () => {
    const f = setup('timeout');
    const s = await startServe(['-c', f.config, '--listen', '127.0.0.1:0', '--drain-timeout', '0.2']);
    const started = new FifoLines(f.started);
    try {
      const inFlight = post(`${s.url}/v1/dispatch/BeforeTool`, undefined, { toolName: 'Bash' });
      expect(await started.next()).toBe('started');
      s.child.kill('SIGTERM');
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ decision: 'deny', interrupted: true });
      expect((await s.done).code).toBe(0);
      expect(s.logs().some((l) => String(l.msg).startsWith('drain timeout'))).toBe(true);
      expect(await settled('timeout')).toEqual([]);
    } finally {
      started.close();
    }
  });

  it('a second signal kills the running hooks and exits at once (143 for SIGTERM)', async () => {
    const f = setup('twice');
    const s = await startServe(['-c', f.config, '--listen', '127.0.0.1:0']);
    const started = new FifoLines(f.started);
    try {
      const inFlight = post(`${s.url}/v1/dispatch/BeforeTool`, undefined, { toolName: 'Bash' }).catch(
        (e: Error) => e,
      );
      expect(await started.next()).toBe('started');
      expect(processesWithEnv('DRAIN_TEST', 'twice')).toHaveLength(1);
      s.child.kill('SIGTERM');
      await s.waitForLog(isDraining);
      s.child.kill('SIGTERM');
      const exit = await s.done;
      expect(exit.code).toBe(143);
      expect(exit.stderr).toContain('second signal: killing the running hooks');
      await inFlight;
      expect(await settled('twice')).toEqual([]);
    } finally {
      started.close();
    }
  });

  it('with nothing in flight, stops at once; a client that goes away aborts its dispatch and its hook', async () => {
    const f = setup('client');
    const s = await startServe(['-c', f.config, '--listen', '127.0.0.1:0']);
    const started = new FifoLines(f.started);
    try {
      const abort = new AbortController();
      const gone = fetch(`${s.url}/v1/dispatch/BeforeTool`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"toolName":"Bash"}',
        signal: abort.signal,
      }).catch((e: Error) => e);
      expect(await started.next()).toBe('started');
      abort.abort();
      await gone;
      const line = await s.waitForLog((l) => l.msg === 'request' && l.route === '/v1/dispatch/:event');
      expect(line).toMatchObject({ status: 499, decision: 'deny' });
      expect(await settled('client')).toEqual([]);
      expect((await s.stop('SIGINT')).code).toBe(0);
    } finally {
      started.close();
    }
  });
});
