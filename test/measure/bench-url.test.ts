// `hookwarden bench --url --token`: the dispatches go to a live `hookwarden serve`, whose
// configuration and the token's tenant decide which hooks run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { type LiveServer, startServe, writeAuthFile } from '../helpers/serve.js';

const dir = tempDir('hw-bench-url-');
const config = writeConfig(dir, 'hooks.json', {
  tenants: {
    acme: {
      hooks: {
        BeforeTool: [
          { hooks: [{ type: 'js', name: 'ask', code: 'export default () => ({ decision: "ask" })' }] },
        ],
      },
    },
  },
});
const auth = writeAuthFile(dir, ['acme']);
let server: LiveServer;
beforeAll(async () => {
  server = await startServe(['-c', config, '--listen', '127.0.0.1:0', '--auth', auth.path]);
});
afterAll(async () => {
  await server.stop();
});

describe('hookwarden bench --url', () => {
  it("measures dispatches to the server, which runs the token's tenant's hooks", async () => {
    const args = [
      'bench',
      '--url',
      server.url,
      '-e',
      'PreToolUse',
      '-n',
      '40',
      '--concurrency',
      '4',
      '--warmup',
      '2',
      '--json',
      '--no-progress',
    ];
    const r = await runCli(args, {
      stdin: '{"toolName":"Bash"}',
      env: { ...process.env, HOOKWARDEN_TOKEN: auth.tokens.acme },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({
      url: server.url,
      config: [],
      iterations: 40,
      concurrency: 4,
      decisions: { ask: 40 },
    });
    expect(result.perHook.ask.count).toBe(40);
    expect(result.overall.p50).toBeGreaterThan(0);
    // The server saw every dispatch: warm-up and measured ones.
    await server.waitForLogs((l) => l.msg === 'request' && l.tenant === 'acme' && l.decision === 'ask', 42);
  });

  it("stops with exit 1 and the server's answer for a wrong token, and refuses flags that do not apply", async () => {
    const noToken = { PATH: process.env.PATH };
    const cases: [string[], string, NodeJS.ProcessEnv?][] = [
      [['--token', 'hw_nope', '-e', 'BeforeTool', '-n', '5'], 'HTTP 401 unauthorized'],
      [
        ['--token', 'x', '-e', 'BeforeTool', '--tenants', '2'],
        "tenants: against a server the token's tenant runs every dispatch",
      ],
      [['-e', 'BeforeTool'], '--url needs a token', noToken],
      [['--token', auth.tokens.acme!, '-e', 'Nope', '-n', '3'], 'HTTP 404 unknown_event'],
    ];
    for (const [args, message, env] of cases) {
      const r = await runCli(['bench', '--url', server.url, ...args], env === undefined ? {} : { env });
      expect(r.code, message).toBe(1);
      expect(r.stderr).toContain(message);
    }
  });
});
