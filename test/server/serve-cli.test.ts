// Starting `hookwarden serve` and making tokens, through the real CLI: the one listening line, the
// loopback rule without --auth, strict auth files (exit 1 naming the bad entry), `serve token`.
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenDigest } from '../../src/server/tokens.js';
import { runCli, startCli } from '../helpers/cli.js';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';
import { get, post, startServe, writeAuthFile } from '../helpers/serve.js';

const dir = tempDir('hw-serve-cli-');
const config = writeConfig(
  dir,
  'hooks.json',
  hooksOn('BeforeTool', [
    { name: 'deny-all', argv: ['/bin/echo', '{"decision":"deny","reason":"top level"}'] },
  ]),
);

/** The fatal log line of a start-up that failed. */
function fatal(stderr: string): string {
  const line = stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: string; msg: string })
    .find((l) => l.level === 'fatal');
  if (line === undefined) throw new Error(`no fatal line in: ${stderr}`);
  return line.msg;
}

describe('hookwarden serve: start', () => {
  it('prints exactly one JSON line with the bound address when port 0 is given, and exits 0 on SIGTERM', async () => {
    const s = await startServe(['--config', config, '--listen', '127.0.0.1:0']);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect(s.stdout()).toBe(`{"listening":"${s.url}"}\n`);
    const exit = await s.stop('SIGTERM');
    expect(exit).toMatchObject({ code: 0, stdout: `{"listening":"${s.url}"}\n` });
    expect(
      exit.stderr
        .split('\n')
        .filter(Boolean)
        .every((l) => l.startsWith('{')),
    ).toBe(true);
  });

  it('without --auth, answers every caller on loopback as the operator: no tenant, a tenant in the body is ignored', async () => {
    const s = await startServe(['--config', config, '--listen', '[::1]:0']);
    expect(s.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    const r = await post(`${s.url}/v1/dispatch/BeforeTool`, undefined, { toolName: 'Bash', tenant: 'acme' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ decision: 'deny', decidedBy: 'deny-all' });
    expect((await get(`${s.url}/metrics`)).status).toBe(200);
    expect((await s.stop()).code).toBe(0);
  });

  it('refuses an address other machines can reach without --auth', async () => {
    for (const listen of ['0.0.0.0:0', '[::]:0', '192.0.2.1:8080']) {
      const r = await runCli(['serve', '--config', config, '--listen', listen]);
      expect(r.code, listen).toBe(1);
      expect(r.stdout).toBe('');
      expect(fatal(r.stderr)).toContain('without --auth anyone could dispatch and reload');
    }
  });

  it('refuses a bad --listen value and an address in use, saying why', async () => {
    const bad = await runCli(['serve', '--config', config, '--listen', 'example.com:80']);
    expect(bad.code).toBe(1);
    expect(fatal(bad.stderr)).toContain('"example.com" is not an IP address');
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    try {
      const r = await runCli(['serve', '--config', config, '--listen', `127.0.0.1:${port}`]);
      expect(r.code).toBe(1);
      expect(fatal(r.stderr)).toBe(`--listen 127.0.0.1:${port}: cannot listen: the address is in use`);
    } finally {
      taken.close();
    }
  });

  it('exits 1 naming the file and the JSON path of a bad auth entry', async () => {
    const good = 'a'.repeat(64);
    const cases: [unknown, string][] = [
      [
        { tokens: [{ sha256: 'abc', tenant: 'acme' }] },
        'tokens[0].sha256: expected 64 lowercase hex characters',
      ],
      [{ tokens: [{ sha256: good, tenant: '../etc' }] }, 'tokens[0].tenant: expected a tenant id'],
      [
        { tokens: [{ sha256: good, tenant: 'a', admin: true }] },
        "tokens[0]: an entry is a tenant's or admin, not both",
      ],
      [{ tokens: [{ sha256: good }] }, 'tokens[0]: expected "tenant": "<id>" or "admin": true'],
      [{ tokens: [{ sha256: good, admin: false }] }, 'tokens[0].admin: expected true'],
      [{ tokens: [{ sha256: good, tenant: 'a', tenat: 'b' }] }, 'tokens[0]: unknown field "tenat"'],
      [
        {
          tokens: [
            { sha256: good, tenant: 'a' },
            { sha256: good, admin: true },
          ],
        },
        'tokens[1].sha256: the same token as tokens[0]',
      ],
      [{ tokens: [] }, 'tokens: expected at least one entry'],
      [{ token: [] }, 'unknown field "token"; an auth file is {"tokens": [entry…]}'],
      ['{"tokens": [', 'invalid JSON at line 1'],
      ['{"tokens": [{"sha256": "x", "sha256": "y"}]}', 'key tokens[0].sha256 written twice'],
    ];
    for (const [content, message] of cases) {
      const path = join(dir, 'bad-auth.json');
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content), { mode: 0o600 });
      const r = await runCli(['serve', '--config', config, '--listen', '127.0.0.1:0', '--auth', path]);
      expect(r.code, message).toBe(1);
      expect(r.stdout).toBe('');
      const msg = fatal(r.stderr);
      expect(msg).toContain(`--auth: ${path}`);
      expect(msg).toContain(message);
    }
  });

  it('refuses an auth file its group or others may write, and one that does not exist', async () => {
    const { path } = writeAuthFile(dir, ['acme'], 'writable.json');
    chmodSync(path, 0o620);
    const r = await runCli(['serve', '--config', config, '--listen', '127.0.0.1:0', '--auth', path]);
    expect(r.code).toBe(1);
    expect(fatal(r.stderr)).toContain(
      `its group or others may write it (mode 0620), so they could add a token; fix: chmod go-w ${path}`,
    );
    const missing = await runCli([
      'serve',
      '--config',
      config,
      '--listen',
      '127.0.0.1:0',
      '--auth',
      join(dir, 'nope.json'),
    ]);
    expect(missing.code).toBe(1);
    expect(fatal(missing.stderr)).toContain('nope.json: does not exist');
  });

  it('needs --listen and a config, and reads durations in seconds', async () => {
    const listen = ['--listen', '127.0.0.1:0'];
    const cases: [string[], string][] = [
      [['--config', config], 'serve needs --listen <host:port>'],
      [listen, 'serve needs at least one --config'],
      [
        ['-c', config, ...listen, '--drain-timeout', 'soon'],
        '--drain-timeout: expected a number of seconds above 0',
      ],
      [
        ['-c', config, ...listen, '--headers-timeout', '20', '--request-timeout', '5'],
        'must not exceed requestTimeoutMs',
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['serve', ...args]);
      expect(r.code, message).toBe(1);
      expect(fatal(r.stderr)).toContain(message);
    }
  });

  it('a signal while it starts stops it cleanly: exit 0, at most the listening line', async () => {
    const env = { ...process.env, HOOKWARDEN_TEST_STAGE_MARKERS: '1' };
    const cli = startCli(['serve', '--config', config, '--listen', '127.0.0.1:0'], { env });
    await cli.stderrIncludes('hookwarden: test-stage: interrupts-installed');
    cli.child.kill('SIGTERM');
    const exit = await cli.done;
    expect(exit.code).toBe(0);
    // Stopped before it listened, or drained right after: at most the one listening line.
    expect(exit.stdout).toMatch(/^(\{"listening":"http:\/\/127\.0\.0\.1:\d+"\}\n)?$/);
    const lines = exit.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('hookwarden: test-stage:'));
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.some((l) => l.includes('signal received'))).toBe(true);
  });

  it('--help teaches the routes, the signals and the exit status', async () => {
    const r = await runCli(['serve', '--help']);
    expect(r.code).toBe(0);
    for (const text of [
      'POST /v1/dispatch/{event}',
      'SIGTERM',
      'SIGHUP',
      'Exit status',
      'serve token --tenant',
    ])
      expect(r.stdout).toContain(text);
  });
});

describe('hookwarden serve token', () => {
  it('prints a random token and the entry that holds only its SHA-256', async () => {
    const a = await runCli(['serve', 'token', '--tenant', 'acme']);
    const b = await runCli(['serve', 'token', '--tenant', 'acme']);
    expect(a.code).toBe(0);
    const one = JSON.parse(a.stdout);
    const two = JSON.parse(b.stdout);
    expect(Object.keys(one)).toEqual(['token', 'entry']);
    expect(one.token).toMatch(/^hw_[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    expect(one.token).not.toBe(two.token);
    expect(one.entry).toEqual({ sha256: tokenDigest(one.token).toString('hex'), tenant: 'acme' });
    const admin = JSON.parse((await runCli(['serve', 'token', '--admin', '--note', 'ops'])).stdout);
    expect(admin.entry).toEqual({
      sha256: tokenDigest(admin.token).toString('hex'),
      admin: true,
      note: 'ops',
    });
  });

  it('refuses a bad tenant id, both or neither of --tenant and --admin', async () => {
    for (const args of [['--tenant', '../x'], ['--tenant', 'a', '--admin'], []]) {
      const r = await runCli(['serve', 'token', ...args]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
    }
  });

  it('--add-to creates a 0600 auth file, keeps the mode of an existing one, and leaves a broken one alone', async () => {
    const path = join(dir, 'added.json');
    const first = JSON.parse((await runCli(['serve', 'token', '--tenant', 'acme', '--add-to', path])).stdout);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    chmodSync(path, 0o640);
    const second = JSON.parse((await runCli(['serve', 'token', '--admin', '--add-to', path])).stdout);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ tokens: [first.entry, second.entry] });
    expect(readFileSync(path, 'utf8')).not.toContain(first.token);
    // The file works as --auth.
    const s = await startServe(['--config', config, '--listen', '127.0.0.1:0', '--auth', path]);
    expect((await post(`${s.url}/v1/reload`, second.token, '')).status).toBe(200);
    expect((await post(`${s.url}/v1/reload`, first.token, '')).status).toBe(403);
    await s.stop();
    writeFileSync(path, '{ broken');
    const r = await runCli(['serve', 'token', '--tenant', 'x', '--add-to', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the file was not changed');
    expect(readFileSync(path, 'utf8')).toBe('{ broken');
  });
});
