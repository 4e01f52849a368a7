// `hookwarden serve --check`: a deploy gate. It judges what the same flags would load — config,
// policy, every tenant, the auth file — starts nothing, and exits 1 on any problem, naming a tenant
// that would fail closed. And a running `serve` with a broken tenant logs one line that names the
// tenant and what is denied, and answers every other tenant as before.
import { chmodSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';
import { post, startServe, writeAuthFile } from '../helpers/serve.js';

const allow = {
  hooks: { BeforeTool: [{ hooks: [{ name: 'ok', argv: ['/bin/echo', '{"decision":"allow"}'] }] }] },
};
const absolute = { hooks: { BeforeTool: [{ hooks: [{ type: 'js', source: '/etc/hookwarden/acme.js' }] }] } };

function files(acme: unknown) {
  const dir = tempDir('hw-check-');
  const policy = writeConfig(dir, 'policy.json', { tenants: { acme, globex: allow } });
  const config = writeConfig(dir, 'hooks.json', { hooks: allow.hooks });
  const auth = writeAuthFile(dir, ['acme', 'globex', 'admin']);
  return { dir, policy, config, auth };
}

describe('serve --check', () => {
  it('exits 0 on a configuration with no problem, and starts nothing', async () => {
    const f = files(allow);
    const r = await runCli(['serve', '--check', '-c', f.config, '-p', f.policy, '--auth', f.auth.path]);
    expect([r.code, r.stdout.trim().split('\n').at(-1)]).toEqual([
      0,
      expect.stringMatching(/^ok: \d+ hooks, 2 tenants; 0 problems/),
    ]);
  });

  it.each([
    [
      'a tenant with an absolute JS source',
      () => files(absolute),
      /tenant "acme" fails closed .*other tenants are not affected/,
    ],
    [
      'a tenant with a bad limit',
      () => files({ ...allow, limits: { weight: -3 } }),
      /tenant "acme" fails closed/,
    ],
    [
      'a policy whose own hooks are broken',
      () => {
        const f = files(allow);
        writeConfig(f.dir, 'policy.json', {
          hooks: { BeforeTool: [{ hooks: [{ command: 3 }] }] },
          tenants: { acme: allow },
        });
        return f;
      },
      /every deny-capable event of every tenant will deny/,
    ],
    [
      'an auth file others may write',
      () => {
        const f = files(allow);
        chmodSync(f.auth.path, 0o666);
        return f;
      },
      /error: --auth: /,
    ],
    [
      'an auth file that is not JSON',
      () => {
        const f = files(allow);
        writeFile(f.auth.path, '{"tokens": [', 0o600);
        return f;
      },
      /error: --auth: /,
    ],
  ])('exits 1 on %s, naming the problem', async (_what, make, line) => {
    const f = make();
    const r = await runCli(['serve', '--check', '-c', f.config, '-p', f.policy, '--auth', f.auth.path]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(line);
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^failed: /);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });
});

describe('serve with a broken tenant', () => {
  it('logs one line naming the tenant and what is denied; every other tenant is served as before', async () => {
    const f = files(absolute);
    const server = await startServe([
      '-c',
      f.config,
      '-p',
      f.policy,
      '--listen',
      '127.0.0.1:0',
      '--auth',
      f.auth.path,
      '--tenant-isolation',
      'process',
    ]);
    const line = await server.waitForLog((l) => String(l.msg).includes('fails closed'));
    expect(line).toMatchObject({ level: 'error', tenant: 'acme', path: 'tenants.acme', skipped: false });
    const url = `${server.url}/v1/dispatch/BeforeTool`;
    const bash = { toolName: 'Bash', toolInput: { command: 'ls' } };
    const acme = await post(url, f.auth.tokens.acme!, bash);
    expect([acme.status, acme.body.decision]).toEqual([200, 'deny']);
    // What the tenant reads names its own section, never the operator's paths.
    expect(JSON.stringify(acme.body)).not.toContain(f.dir);
    const globex = await post(url, f.auth.tokens.globex!, bash);
    expect([globex.status, globex.body.decision]).toEqual([200, 'allow']);
    await server.stop();
  });
});
