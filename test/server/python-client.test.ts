// The Python client (examples/clients/python/hookwarden_client.py, standard library only) against a
// live server: the result on stdout, exit 0 on proceed, 2 on deny, 1 on any error.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProgram } from '../helpers/cli.js';
import { FifoFeed, FifoLines, mkfifo, waitingHook } from '../helpers/fifo.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { get, type LiveServer, metricValue, startServe, writeAuthFile } from '../helpers/serve.js';

const CLIENT = fileURLToPath(new URL('../../examples/clients/python/hookwarden_client.py', import.meta.url));

const python = (args: string[], stdin: string, env: NodeJS.ProcessEnv = {}) =>
  runProgram('python3', [CLIENT, ...args], { stdin, env: { PATH: process.env.PATH, ...env } });

const dir = tempDir('hw-python-');
const startedPath = mkfifo(dir, 'started');
const releasePath = mkfifo(dir, 'release');
const config = writeConfig(dir, 'hooks.json', {
  tenants: {
    acme: {
      hooks: {
        BeforeTool: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'js',
                name: 'guard',
                code: "export default (i) => /rm -rf/.test(i.toolInput.command) ? { decision: 'deny', reason: 'destructive' } : { decision: 'allow' }",
              },
            ],
          },
        ],
      },
    },
    busy: {
      limits: { maxConcurrent: 1, maxQueued: 1 },
      hooks: { SessionStart: [{ hooks: [{ name: 'waits', ...waitingHook(startedPath, releasePath) }] }] },
    },
  },
});
const auth = writeAuthFile(dir, ['acme', 'busy', 'admin']);
let server: LiveServer;
beforeAll(async () => {
  // The tenants' hooks wait on FIFOs outside the sandbox root: process mode, not serve's default.
  server = await startServe([
    '-c',
    config,
    '--listen',
    '127.0.0.1:0',
    '--auth',
    auth.path,
    '--tenant-isolation',
    'process',
  ]);
});
afterAll(async () => {
  await server.stop();
});

describe('examples/clients/python/hookwarden_client.py', () => {
  it('prints the DispatchResult and exits 0 on proceed, 2 on deny (snake_case input on stdin)', async () => {
    const args = ['--url', server.url, '--token', auth.tokens.acme!, '--event', 'PreToolUse'];
    const allow = await python(
      args,
      JSON.stringify({ session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } }),
    );
    expect(allow.stderr).toBe('');
    expect(allow.code).toBe(0);
    expect(JSON.parse(allow.stdout)).toMatchObject({
      event: 'BeforeTool',
      decision: 'allow',
      decidedBy: 'guard',
    });
    const deny = await python(
      args,
      JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }),
    );
    expect(deny.code).toBe(2);
    expect(JSON.parse(deny.stdout)).toMatchObject({ decision: 'deny', reason: 'destructive' });
    const passthrough = await python(['--url', server.url, '--event', 'SessionStart'], '', {
      HOOKWARDEN_TOKEN: auth.tokens.acme!,
    });
    expect(passthrough.code).toBe(0);
    expect(JSON.parse(passthrough.stdout).decision).toBe('passthrough');
  });

  it("exits 1 with the server's error for a wrong token or an unknown event, and for input that is not JSON", async () => {
    const wrong = await python(['--url', server.url, '--token', 'hw_wrong', '--event', 'PreToolUse'], '{}');
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toContain('HTTP 401 unauthorized');
    const unknown = await python(
      ['--url', server.url, '--token', auth.tokens.acme!, '--event', 'Nope'],
      '{}',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('HTTP 404 unknown_event');
    const notJson = await python(
      ['--url', server.url, '--token', auth.tokens.acme!, '--event', 'PreToolUse'],
      '{oops',
    );
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toContain('stdin is not JSON');
    const noToken = await python(['--url', server.url, '--event', 'PreToolUse'], '{}');
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain('give --token or set HOOKWARDEN_TOKEN');
  });

  it('exits 1 when the server cannot be reached', async () => {
    const r = await python(['--url', 'http://127.0.0.1:9', '--token', 't', '--event', 'PreToolUse'], '{}');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unreachable');
  });

  it('exits 1 on a 429 (queue full) once its retries are used up', async () => {
    const started = new FifoLines(startedPath);
    const release = new FifoFeed(releasePath);
    const token = auth.tokens.busy!;
    const args = ['--url', server.url, '--token', token, '--event', 'SessionStart'];
    try {
      const running = python(args, '{}');
      expect(await started.next()).toBe('started');
      const queued = python(args, '{}');
      for (;;) {
        const m = await get(`${server.url}/metrics`, auth.tokens.admin);
        if (metricValue(m.text, 'hookwarden_lane_queued', { tenant: 'busy', lane: 'command' }) === 1) break;
      }
      const full = await python([...args, '--retries', '0'], '{}');
      expect(full.code).toBe(1);
      expect(full.stderr).toContain('HTTP 429 queue_full');
      release.send();
      release.send();
      expect((await running).code).toBe(0);
      expect((await queued).code).toBe(0);
    } finally {
      started.close();
      release.close();
    }
  });
});
