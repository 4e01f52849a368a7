// The CLI of proving packs and shipping them: `pack test`, `hookwarden test`, `pack lock
// --require-tests`, fixtures in `pack verify` and `validate`, `pack bundle`, and a url pin dispatched
// from the command line.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockPack } from '../../src/packs/lock-pack.js';
import { signPack } from '../../src/packs/sign-pack.js';
import { BundleServer } from '../helpers/bundle-server.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';
import { keyPair, script, writePack } from '../helpers/pack.js';

const fixture = (name: string, command: string, decision: string) => ({
  name,
  event: 'BeforeTool',
  input: { toolName: 'Bash', toolInput: { command } },
  expect: { decision },
});

function pack(fixtures: unknown[]) {
  return writePack({
    hooks: {
      BeforeTool: [{ matcher: 'Bash', hooks: [{ name: 'guard', command: './guard.sh' }] }],
      AfterTool: [{ hooks: [{ name: 'unreached', type: 'js', code: 'export default () => {}' }] }],
    },
    files: {
      'guard.sh': '#!/bin/sh\ngrep -q \'"rm \' && { echo "no rm" >&2; exit 2; }\nexit 0\n',
      'tests/guard.json': JSON.stringify(fixtures),
    },
  });
}

/** Locks and signs `dir` with a fresh key; returns the key pair. */
async function lockAndSign(dir: string) {
  await lockPack(dir);
  const keys = await keyPair();
  await signPack(dir, readFileSync(keys.key));
  return keys;
}

const good = () =>
  pack([fixture('rm is denied', 'rm x', 'deny'), fixture('ls proceeds', 'ls', 'passthrough')]);
const bad = () => pack([fixture('rm is denied', 'rm x', 'deny'), fixture('ls is denied', 'ls', 'deny')]);

describe('hookwarden pack test', () => {
  it('prints a line per fixture, coverage, and "N passed, N failed" last; exit 0 when all pass', async () => {
    const dir = good();
    const r = await runCli(['pack', 'test', dir]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^testing .* at sha256:[0-9a-f]{64} \(not locked yet/);
    expect(lines[1]).toMatch(/^pass {2}rm is denied +expected deny, got deny +\d+\.\d ms$/);
    expect(lines[2]).toMatch(/^pass {2}ls proceeds +expected passthrough, got passthrough +\d+\.\d ms$/);
    expect(r.stdout).toContain('coverage: 1 of 2 hooks reached\n');
    expect(r.stdout).toContain('  BeforeTool guard (command, policy): 2 fixtures; deny 1, proceed 1\n');
    expect(r.stdout).toContain('  not reached: AfterTool unreached (js, policy)\n');
    expect(lines.at(-1)).toBe('2 passed, 0 failed');
  });

  it('exit 1 and each difference named when a fixture fails; --json for CI', async () => {
    const dir = bad();
    await lockPack(dir);
    const r = await runCli(['pack', 'test', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^testing .* at sha256:[0-9a-f]{64}\n/); // locked: tested in place
    expect(r.stdout).toMatch(/FAIL {2}ls is denied +expected deny, got passthrough/);
    expect(r.stdout).toContain(
      '        at tests/guard.json [1]\n        - decision: expected deny, got passthrough\n',
    );
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed');
    const json = await runCli(['pack', 'test', dir, '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ ok: false, locked: true, passed: 1, failed: 1 });
    expect(report.results[1]).toMatchObject({
      name: 'ls is denied',
      status: 'fail',
      expected: 'deny',
      actual: 'passthrough',
    });
    expect(report.coverage.unreached).toMatchObject([{ id: 'unreached' }]);
  });

  it('exit 1 for a pack without fixtures, and for an invalid fixture file (naming the path)', async () => {
    const none = writePack({ hooks: {}, files: {} });
    const r = await runCli(['pack', 'test', none]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('no fixtures in');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('0 passed, 0 failed');
    const dir = good();
    writeFile(
      join(dir, 'tests/broken.json'),
      '{"name": "x", "event": "BeforeTool", "input": {}, "expect": {}}',
    );
    const broken = await runCli(['pack', 'test', dir]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(
      'tests/broken.json: expect.decision: expected "allow", "deny", "ask", "defer" or "passthrough"',
    );
  });

  it('--help teaches the fixture format, with examples and exit codes', async () => {
    for (const args of [['pack', 'test'], ['pack', 'bundle'], ['test'], ['pack', 'lock']]) {
      const r = await runCli([...args, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Exit status:');
      expect(r.stdout).toMatch(/Examples?:\n {2}\$ hookwarden/);
    }
  });
});

describe('fixtures elsewhere in the CLI', () => {
  it('pack lock --require-tests refuses failing fixtures and writes no lock', async () => {
    const dir = bad();
    const r = await runCli(['pack', 'lock', dir, '--require-tests']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--require-tests: 1 of 2 fixtures fail ("ls is denied")');
    expect(r.stdout).toBe('');
    const ok = await runCli(['pack', 'lock', good(), '--require-tests']);
    expect([ok.code, ok.stdout]).toEqual([0, expect.stringMatching(/^sha256:[0-9a-f]{64}\n$/)]);
  });

  it('pack verify counts fixtures, runs them for a pinned digest, and exits 1 when one fails', async () => {
    const dir = bad();
    const { digest } = await lockPack(dir);
    const plain = await runCli(['pack', 'verify', dir]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('  2 fixtures (tests/*.json)\n');
    expect(plain.stdout).toContain('fixtures not run (give --digest or --pubkey');
    const pinned = await runCli(['pack', 'verify', dir, '--digest', digest]);
    expect(pinned.code).toBe(1);
    expect(pinned.stdout).toContain('  - fixtures fail: "ls is denied"');
    const skipped = await runCli(['pack', 'verify', dir, '--digest', digest, '--no-tests']);
    expect(skipped.code).toBe(0);
    const json = JSON.parse((await runCli(['pack', 'verify', dir, '--digest', digest, '--json'])).stdout);
    expect(json).toMatchObject({
      ok: false,
      fixtureCount: 2,
      fixtures: { passed: 1, failed: 1, failing: ['ls is denied'] },
    });
  });

  it('validate runs the fixtures of every pack that verified; a failing one is an error', async () => {
    const dir = bad();
    const { digest } = await lockPack(dir);
    const cfg = writeConfig(tempDir(), 'policy.json', { packs: [{ path: dir, digest }] });
    const r = await runCli(['validate', '-p', cfg]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`error: pack ${dir}: 1 of 2 fixtures fail ("ls is denied")`);
    expect((await runCli(['validate', '-p', cfg, '--no-tests'])).code).toBe(0);
    const fixed = good();
    const pin = await lockPack(fixed);
    const cfg2 = writeConfig(tempDir(), 'policy.json', { packs: [{ path: fixed, digest: pin.digest }] });
    const ok = await runCli(['validate', '-p', cfg2]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('  fixtures: 2 passed\n');
  });

  it('hookwarden test runs fixture files and directories against any config', async () => {
    const dir = tempDir();
    const cfg = writeConfig(dir, 'hooks.json', {
      hooks: {
        BeforeTool: [{ matcher: 'Bash', hooks: [{ name: 'g', argv: ['/bin/echo', '{"decision":"ask"}'] }] }],
      },
    });
    writeFile(join(dir, 'tests/a.json'), JSON.stringify([fixture('asks', 'ls', 'ask')]));
    writeFile(join(dir, 'tests/more/b.json'), JSON.stringify(fixture('asks too', 'pwd', 'ask')));
    const r = await runCli(['test', cfg, join(dir, 'tests')]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('with 2 fixtures\n');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('2 passed, 0 failed');
    writeFile(join(dir, 'wrong.json'), JSON.stringify(fixture('denies', 'ls', 'deny')));
    const fail = await runCli(['test', cfg, join(dir, 'wrong.json')]);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toContain('FAIL  denies');
  });
});

describe('hookwarden pack bundle', () => {
  it('writes the same bytes for the same pack, and refuses a pack that does not match its lock', async () => {
    const dir = good();
    await lockAndSign(dir);
    const out = tempDir();
    const a = await runCli(['pack', 'bundle', dir, '--out', join(out, 'a.tar.gz')]);
    expect([a.code, a.stderr]).toEqual([0, '']);
    expect(a.stdout).toMatch(
      /^bundled sha256:[0-9a-f]{64} \(5 files\) into .*a\.tar\.gz\n {2}\d+ bytes, file sha256:[0-9a-f]{64}, 1 signature\n$/,
    );
    await runCli(['pack', 'bundle', dir, '--out', join(out, 'b.tar.gz')]);
    expect(readFileSync(join(out, 'a.tar.gz')).equals(readFileSync(join(out, 'b.tar.gz')))).toBe(true);

    writeFileSync(join(dir, 'guard.sh'), script({ decision: 'allow' }));
    const edited = await runCli(['pack', 'bundle', dir, '--out', join(out, 'c.tar.gz')]);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain('changed since the lock: guard.sh');
    const inside = await runCli(['pack', 'bundle', good(), '--out', join(dir, 'x.tar.gz')]);
    expect(inside.code).toBe(1);
  });

  it('an unsigned bundle is written with a warning', async () => {
    const dir = good();
    await lockPack(dir);
    const r = await runCli(['pack', 'bundle', dir, '--out', join(tempDir(), 'u.tar.gz')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('is not signed: a url pin without a digest refuses it');
  });
});

describe('a url pin from the command line', () => {
  it('dispatch fetches once, then uses the cache while it is fresher than pollSeconds', async () => {
    const dir = good();
    const keys = await lockAndSign(dir);
    const bundle = join(tempDir(), 'g.tar.gz');
    expect((await runCli(['pack', 'bundle', dir, '--out', bundle])).code).toBe(0);
    const server = new BundleServer();
    await server.start();
    server.routes.set('/g.tar.gz', { body: readFileSync(bundle), etag: '"1"' });
    const base = tempDir();
    const policy = writeConfig(base, 'policy.json', {
      packs: [{ url: server.url('/g.tar.gz'), name: 'guard', publicKeys: [keys.pub], pollSeconds: 3600 }],
    });
    const args = ['dispatch', 'BeforeTool', '-p', policy, '--pack-cache', join(base, 'cache')];
    const stdin = JSON.stringify({ toolName: 'Bash', toolInput: { command: 'rm -rf x' } });
    for (let i = 0; i < 2; i++) {
      const r = await runCli(args, { stdin });
      expect([r.code, r.stderr]).toEqual([2, '']);
      expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny', reason: 'no rm', decidedBy: 'guard' });
    }
    expect(server.requests).toHaveLength(1);
    const v = await runCli(['validate', '-p', policy, '--pack-cache', join(base, 'cache')]);
    expect(v.stdout).toContain(`(from ${server.url('/g.tar.gz')})`);
    expect(server.requests.at(-1)).toMatchObject({ ifNoneMatch: '"1"', status: 304 });
  });
});
