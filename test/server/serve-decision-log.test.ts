// `hookwarden serve --decision-log <url>`: a real serve sends its decision events to a sink the test
// runs on 127.0.0.1, with the credentials of $HOOKWARDEN_DECISION_LOG_HEADERS (never in a log line);
// a dead sink leaves the verdicts as they are, is logged at warn once and counted in the metrics.
import { describe, expect, it } from 'vitest';
import { DecisionSink, deadPort } from '../helpers/decision-sink.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { metricValue, post, startServe, writeAuthFile } from '../helpers/serve.js';

const dir = tempDir('hw-serve-dl-');
const SECRET = 'Bearer DL-CREDENTIAL-5d1e';
const config = writeConfig(dir, 'hooks.json', {
  tenants: {
    acme: {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              {
                type: 'js',
                name: 'no-rm',
                code: 'export default (i) => i.toolInput.command.startsWith("rm") ? { decision: "deny" } : undefined',
              },
            ],
          },
        ],
      },
    },
  },
});
const auth = writeAuthFile(dir, ['acme', 'admin']);
const rm = { toolName: 'Bash', toolInput: { command: 'rm -rf /' } };
const metrics = async (url: string) =>
  (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${auth.tokens.admin}` } })).text();

describe('serve --decision-log', () => {
  it.each([
    ['the flag', (url: string) => ({ args: ['--decision-log', url], env: {} })],
    [
      '$HOOKWARDEN_DECISION_LOG_URL',
      (url: string) => ({ args: [], env: { HOOKWARDEN_DECISION_LOG_URL: url } }),
    ],
  ])('sends each dispatch to the sink named by %s, with the headers of the environment', async (_, how) => {
    const sink = await DecisionSink.start();
    const { args, env } = how(sink.url);
    const s = await startServe(['-c', config, '--listen', '127.0.0.1:0', '--auth', auth.path, ...args], {
      env: { ...process.env, ...env, HOOKWARDEN_DECISION_LOG_HEADERS: `authorization=${SECRET},x-scope=hw` },
    });
    const r = await post(`${s.url}/v1/dispatch/PreToolUse`, auth.tokens.acme, rm);
    expect(r.body.decision).toBe('deny');
    await sink.until(() => sink.events.length > 0);
    expect(sink.requests[0]!.headers).toMatchObject({ authorization: SECRET, 'x-scope': 'hw' });
    expect(sink.events[0]).toMatchObject({
      path: 'BeforeTool',
      tenant: 'acme',
      result: { decision: 'deny', decided_by: 'no-rm' },
      labels: { app: 'hookwarden' },
    });
    expect(metricValue(await metrics(s.url), 'hookwarden_decision_log_sent_total')).toBe(1);
    const exit = await s.stop();
    expect(exit.stderr).not.toContain('DL-CREDENTIAL');
    expect(exit.stdout).not.toContain('DL-CREDENTIAL');
  });

  it('keeps the verdicts with a dead sink, says so once at warn, and counts it', async () => {
    const url = `http://127.0.0.1:${await deadPort()}/logs`;
    const s = await startServe(
      ['-c', config, '--listen', '127.0.0.1:0', '--auth', auth.path, '--decision-log', url],
      {
        env: { ...process.env, HOOKWARDEN_DECISION_LOG_HEADERS: `authorization=${SECRET}` },
      },
    );
    for (let i = 0; i < 3; i++)
      expect((await post(`${s.url}/v1/dispatch/BeforeTool`, auth.tokens.acme, rm)).body.decision).toBe(
        'deny',
      );
    const line = await s.waitForLog((l) => l.component === 'decision-log');
    expect(line).toMatchObject({
      level: 'warn',
      sink: url,
      msg: expect.stringContaining('decision-log upload failed'),
    });
    const text = await metrics(s.url);
    expect(metricValue(text, 'hookwarden_decision_log_upload_failures_total')).toBeGreaterThanOrEqual(1);
    expect(metricValue(text, 'hookwarden_decision_log_sent_total')).toBe(0);
    const exit = await s.stop();
    expect(exit.code).toBe(0);
    const lines = exit.stderr.split('\n').filter((l) => l.includes('"component":"decision-log"'));
    // One report of the outage, and one of what the stop could not send.
    expect(lines.filter((l) => l.includes('upload failed'))).toHaveLength(1);
    expect(exit.stderr).not.toContain('DL-CREDENTIAL');
  });
});
