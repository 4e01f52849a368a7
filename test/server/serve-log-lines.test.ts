// Log lines an operator can live with. During a drain the 503s are answers the server gives on
// purpose: each request line is at info, and there is no `request failed` line nor a stack. And a line
// that names a tenant names it as the metrics (and spans) do: its id, `other` for a token's tenant the
// configuration does not name, `none` for the operator — in request lines, the start-up warning about
// unnamed tenants, and an audit failure's line.
import { describe, expect, it } from 'vitest';
import { auditFailureDiagnostic } from '../../src/audit/audit-failure.js';
import { tenantLabel } from '../../src/contract/tenant-label.js';
import { createServiceLogger, logDiagnostic } from '../../src/server/logging.js';
import { FifoFeed, FifoLines, mkfifo, waitingHook } from '../helpers/fifo.js';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';
import { get, post, startServe, writeAuthFile } from '../helpers/serve.js';

const dir = tempDir('hw-log-lines-');

describe('drain logs', () => {
  it('logs the 503s of a drain (readyz on both listeners, a late dispatch) at info, without a stack', async () => {
    const started = mkfifo(dir, 'started');
    const release = mkfifo(dir, 'release');
    const config = writeConfig(
      dir,
      'drain.json',
      hooksOn('BeforeTool', [{ name: 'waits', ...waitingHook(started, release) }]),
    );
    const s = await startServe(['-c', config, '--listen', '127.0.0.1:0', '--metrics-listen', '127.0.0.1:0']);
    const lines = new FifoLines(started);
    const feed = new FifoFeed(release);
    try {
      const inFlight = post(`${s.url}/v1/dispatch/BeforeTool`, undefined, { toolName: 'Bash' });
      expect(await lines.next()).toBe('started');
      s.child.kill('SIGTERM');
      await s.waitForLog((l) => l.msg === 'draining');
      expect((await get(`${s.url}/readyz`)).status).toBe(503);
      expect((await get(`${s.metricsUrl}/readyz`)).status).toBe(503);
      expect((await post(`${s.url}/v1/dispatch/BeforeTool`, undefined, { toolName: 'Bash' })).status).toBe(
        503,
      );
      feed.send();
      expect((await inFlight).status).toBe(200);
      const exit = await s.done;
      expect(exit.code).toBe(0);
      const logged = s.logs();
      const refused = logged.filter((l) => l.msg === 'request' && l.status === 503);
      expect(refused.map((l) => [l.route, l.level, l.errorCode])).toEqual([
        ['/readyz', 'info', 'draining'],
        ['/readyz', 'info', 'draining'],
        ['/v1/dispatch/:event', 'info', 'draining'],
      ]);
      expect(logged.filter((l) => l.msg === 'request failed' || 'stack' in l)).toEqual([]);
      expect(logged.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
    } finally {
      lines.close();
      feed.close();
    }
  });
});

describe('tenant names in log lines', () => {
  it('names a tenant in request lines and warnings as the metrics do', async () => {
    const config = writeConfig(dir, 'tenants.json', {
      tenants: {
        acme: hooksOn('BeforeTool', [{ type: 'js', name: 'j', code: 'export default () => ({})' }]),
      },
    });
    const auth = writeAuthFile(dir, ['acme', 'ghost', 'admin'], 'auth-tenants.json');
    const s = await startServe(['-c', config, '--listen', '127.0.0.1:0', '--auth', auth.path]);
    for (const who of ['acme', 'ghost', 'admin'])
      expect(
        (await post(`${s.url}/v1/dispatch/BeforeTool`, auth.tokens[who], { toolName: 'Bash' })).status,
      ).toBe(200);
    const metrics = await (
      await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${auth.tokens.admin}` } })
    ).text();
    const exit = await s.stop();
    const logged = exit.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const dispatches = logged.filter((l) => l.msg === 'request' && l.route === '/v1/dispatch/:event');
    expect(dispatches.map((l) => l.tenant)).toEqual(['acme', 'other', 'none']);
    for (const t of ['acme', 'other', 'none'])
      expect(metrics).toContain(
        `hookwarden_dispatch_duration_seconds_count{event="BeforeTool",tenant="${t}"`,
      );
    const warning = logged.find((l) => String(l.msg).startsWith('a token speaks for a tenant'));
    expect(warning).toMatchObject({ level: 'warn', tenant: 'other', tokenTenant: 'ghost' });
  });

  it("names the tenant of an audit failure's line the same way", () => {
    const out: string[] = [];
    const { logger } = createServiceLogger('info', { write: (l: string) => void out.push(l) });
    const named = new Set(['acme']);
    const name = (t: string) => tenantLabel(t, (x) => named.has(x));
    const failure = {
      time: 't',
      file: '/x/audit.jsonl',
      message: 'EISDIR',
      code: 'EISDIR',
      pending: 1,
      dropped: 0,
      denied: false,
    };
    for (const tenant of ['acme', 'ghost', undefined])
      logDiagnostic(logger, auditFailureDiagnostic({ ...failure, event: 'BeforeTool', tenant }), name);
    expect(out.map((l) => JSON.parse(l).tenant)).toEqual(['acme', 'other', undefined]);
  });
});
