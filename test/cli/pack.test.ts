import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';
import { script, writePack } from '../helpers/pack.js';

const guard = () =>
  writePack({
    hooks: { BeforeTool: [{ matcher: 'Bash', hooks: [{ name: 'guard', command: './check.sh' }] }] },
    files: { 'check.sh': script({ decision: 'deny', reason: 'from the pack' }) },
  });

describe('hookwarden pack', () => {
  it('lock prints only the digest; keygen, sign and verify round-trip', async () => {
    const dir = guard();
    const lock = await runCli(['pack', 'lock', dir]);
    expect([lock.code, lock.stderr]).toEqual([0, '']);
    expect(lock.stdout).toMatch(/^sha256:[0-9a-f]{64}\n$/);
    const digest = lock.stdout.trim();
    expect(JSON.parse(readFileSync(join(dir, 'hookpack.lock.json'), 'utf8')).digest).toBe(digest);

    const prefix = join(tempDir(), 'reviewer');
    const keygen = await runCli(['pack', 'keygen', '--out', prefix]);
    expect(keygen.code).toBe(0);
    expect(statSync(`${prefix}.key`).mode & 0o777).toBe(0o600);
    const keyId = /key id:\s+(sha256:[0-9a-f]{64})/.exec(keygen.stdout)![1]!;

    const sign = await runCli(['pack', 'sign', dir, '--key', `${prefix}.key`]);
    expect(sign.stdout).toBe(`signed ${digest} with key ${keyId} (hookpack.sig holds 1 signature)\n`);

    const verify = await runCli(['pack', 'verify', dir, '--pubkey', `${prefix}.pub`, '--digest', digest]);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toContain(`verified: `);
    expect(verify.stdout).toContain(`signed by ${keyId}`);

    const json = await runCli(['pack', 'verify', dir, '--pubkey', `${prefix}.pub`, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, digest, verifiedBy: keyId });
  });

  it('verify exits 1 naming every changed, added and removed file', async () => {
    const dir = guard();
    writeFile(join(dir, 'lib/old.js'), 'old');
    await runCli(['pack', 'lock', dir]);
    writeFileSync(join(dir, 'check.sh'), 'exit 0\n');
    writeFile(join(dir, 'evil.sh'), 'curl evil');
    const { rmSync } = await import('node:fs');
    rmSync(join(dir, 'lib/old.js'));
    const r = await runCli(['pack', 'verify', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('refused: ');
    expect(r.stdout).toContain('  - changed since the lock: check.sh\n');
    expect(r.stdout).toContain('  - added (not in the lock): evil.sh\n');
    expect(r.stdout).toContain('  - removed (listed in the lock): lib/old.js\n');
  });

  it('verify exits 1 on a --digest mismatch and on a key that did not sign', async () => {
    const dir = guard();
    await runCli(['pack', 'lock', dir]);
    const keys = tempDir();
    await runCli(['pack', 'keygen', '--out', join(keys, 'a')]);
    await runCli(['pack', 'keygen', '--out', join(keys, 'b')]);
    await runCli(['pack', 'sign', dir, '--key', join(keys, 'a.key')]);
    const other = `sha256:${'1'.repeat(64)}`;
    const wrongDigest = await runCli(['pack', 'verify', dir, '--digest', other]);
    expect([wrongDigest.code, wrongDigest.stdout]).toEqual([
      1,
      expect.stringContaining(`does not match the pinned ${other}`),
    ]);
    const wrongKey = await runCli(['pack', 'verify', dir, '--pubkey', join(keys, 'b.pub')]);
    expect([wrongKey.code, wrongKey.stdout]).toEqual([
      1,
      expect.stringContaining('no signature verifies with a trusted key'),
    ]);
    const either = await runCli([
      'pack',
      'verify',
      dir,
      '--pubkey',
      join(keys, 'b.pub'),
      '--pubkey',
      join(keys, 'a.pub'),
    ]);
    expect(either.code).toBe(0);
  });

  it('reports usage errors on one line of stderr, without a stack trace', async () => {
    const dir = guard();
    const cases: [string[], RegExp][] = [
      [
        ['pack', 'lock', join(dir, 'nope')],
        /^hookwarden: error: cannot lock .*: pack directory not found: .*\n$/,
      ],
      [
        ['pack', 'verify', dir, '--digest', 'abc'],
        /^hookwarden: error: --digest: expected sha256:<64 lowercase hex>, got "abc"\n$/,
      ],
      [
        ['pack', 'sign', dir, '--key', join(dir, 'check.sh')],
        /^hookwarden: error: --key .*check\.sh: not a PEM private key/,
      ],
      [
        ['pack', 'sign', dir, '--key', join(dir, 'missing.key')],
        /^hookwarden: error: --key .*missing\.key: cannot read the key file \(ENOENT\)\n$/,
      ],
      [['pack', 'sign', dir, '--key', join(dir, 'hookpack.json')], /^hookwarden: error: --key /],
    ];
    for (const [args, stderr] of cases) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(stderr);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    const noOut = await runCli(['pack', 'keygen']);
    expect([noOut.code, noOut.stderr]).toEqual([
      1,
      expect.stringMatching(/^error: required option '-o, --out <prefix>' not specified\n/),
    ]);
    const unlocked = await runCli(['pack', 'sign', guard(), '--key', join(dir, 'x')]);
    expect(unlocked.stderr).not.toContain('    at ');
  });

  it('verify refuses a private key given as --pubkey', async () => {
    const prefix = join(tempDir(), 'k');
    await runCli(['pack', 'keygen', '--out', prefix]);
    const r = await runCli(['pack', 'verify', guard(), '--pubkey', `${prefix}.key`]);
    expect([r.code, r.stderr]).toEqual([
      1,
      `hookwarden: error: --pubkey ${prefix}.key: this is a private key; give the public key (.pub) and keep the .key secret\n`,
    ]);
  });

  it('keygen --out keys/reviewer (as in the README) creates the missing folders with mode 0700', async () => {
    const cwd = tempDir();
    const r = await runCli(['pack', 'keygen', '--out', 'keys/team/reviewer'], { cwd });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(statSync(join(cwd, 'keys')).mode & 0o777).toBe(0o700);
    expect(statSync(join(cwd, 'keys/team')).mode & 0o777).toBe(0o700);
    expect(statSync(join(cwd, 'keys/team/reviewer.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(cwd, 'keys/team/reviewer.pub')).isFile()).toBe(true);
    // An existing folder keeps its mode.
    mkdirSync(join(cwd, 'shared'));
    chmodSync(join(cwd, 'shared'), 0o755);
    expect((await runCli(['pack', 'keygen', '--out', 'shared/k'], { cwd })).code).toBe(0);
    expect(statSync(join(cwd, 'shared')).mode & 0o777).toBe(0o755);
  });

  it('keygen refuses to overwrite an existing key', async () => {
    const prefix = join(tempDir(), 'k');
    await runCli(['pack', 'keygen', '--out', prefix]);
    const again = await runCli(['pack', 'keygen', '--out', prefix]);
    expect([again.code, again.stderr]).toEqual([
      1,
      `hookwarden: error: ${prefix}.key already exists; remove it or choose another --out prefix\n`,
    ]);
  });

  it('--help teaches each command with examples and exit codes', async () => {
    for (const sub of ['lock', 'keygen', 'sign', 'verify']) {
      const r = await runCli(['pack', sub, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Exit status:');
      expect(r.stdout).toMatch(/Examples?:\n {2}\$ hookwarden pack /);
    }
    expect((await runCli(['pack', '--help'])).stdout).toMatch(/lock[\s\S]*keygen[\s\S]*sign[\s\S]*verify/);
  });
});

/** A locked pack `packs/guard` (one command hook, ./check.sh) under a fresh directory. */
async function lockedGuardPack(): Promise<{ base: string; dir: string; digest: string }> {
  const base = tempDir();
  const dir = writePack(
    {
      hooks: { BeforeTool: [{ hooks: [{ name: 'guard', command: './check.sh' }] }] },
      files: { 'check.sh': script({}) },
    },
    join(base, 'packs', 'guard'),
  );
  const digest = (await runCli(['pack', 'lock', dir])).stdout.trim();
  return { base, dir, digest };
}

describe('hookwarden validate and dispatch with pinned packs', () => {
  it('validate verifies pinned packs: exit 0 listing them, exit 1 naming the changed file', async () => {
    const { base, dir, digest } = await lockedGuardPack();
    const cfg = writeConfig(base, 'hooks.json', { packs: [{ path: 'packs/guard', digest }] });
    const ok = await runCli(['validate', cfg]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`pack: "guard" 1.0.0 (user) verified: `);
    expect(ok.stdout).toContain(digest);
    writeFileSync(join(dir, 'check.sh'), 'exit 0');
    const bad = await runCli(['validate', cfg]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(
      'packs[0]: pack "packs/guard" refused, its hooks do not run: changed since the lock: check.sh',
    );
  });

  it('dispatch denies deny-capable events when a policy pack is tampered', async () => {
    const { base, dir, digest } = await lockedGuardPack();
    const policy = writeConfig(base, 'policy.json', { packs: [{ path: 'packs/guard', digest }] });
    writeFileSync(join(dir, 'check.sh'), 'exit 0');
    const r = await runCli(['dispatch', 'BeforeTool', '--policy', policy]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({
      decision: 'deny',
      decidedBy: 'policy',
      reason: expect.stringContaining('check.sh'),
    });
  });
});
