// `pack verify` without a trusted key (issue 39): a hookpack.sig is no proof until its public key
// checks it, and verify says so plainly instead of a bare "verified"; a signature made for another
// digest (the pack changed and was locked again after signing) is refused as one that does not
// verify, naming both digests; a pack that is not signed is verified against its lock as before.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixture.js';
import { script, writePack } from '../helpers/pack.js';

const guard = () =>
  writePack({
    hooks: { BeforeTool: [{ matcher: 'Bash', hooks: [{ name: 'guard', command: './check.sh' }] }] },
    files: { 'check.sh': script({ decision: 'deny', reason: 'from the pack' }) },
  });

async function keyPair(name = 'reviewer') {
  const prefix = join(tempDir(), name);
  expect((await runCli(['pack', 'keygen', '--out', prefix])).code).toBe(0);
  return prefix;
}

describe('pack verify without a trusted key', () => {
  it('a signed pack: verified against its lock, the signature NOT checked, and the fix', async () => {
    const dir = guard();
    await runCli(['pack', 'lock', dir]);
    const key = await keyPair();
    await runCli(['pack', 'sign', dir, '--key', `${key}.key`]);
    const r = await runCli(['pack', 'verify', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^verified against its lock, signature NOT checked: /);
    expect(r.stdout).toMatch(
      /hookpack\.sig holds a signature by sha256:[0-9a-f]{64}, which only its public key can check: give --pubkey <file>/,
    );
    expect(
      JSON.parse((await runCli(['pack', 'verify', dir, '--json'])).stdout).uncheckedSignatures,
    ).toHaveLength(1);
  }, 300_000);

  it.each([
    ['changed and locked again', async (dir: string) => writeFileSync(join(dir, 'check.sh'), 'exit 0\n')],
    ['a file added and locked again', async (dir: string) => writeFileSync(join(dir, 'extra.txt'), 'x\n')],
  ])(
    'a signature made before the pack was %s does not verify: refused, both digests named',
    async (_what, change) => {
      const dir = guard();
      const signed = (await runCli(['pack', 'lock', dir])).stdout.trim();
      const [a, b] = [await keyPair('a'), await keyPair('b')];
      await runCli(['pack', 'sign', dir, '--key', `${a}.key`]);
      await change(dir);
      const now = (await runCli(['pack', 'lock', dir])).stdout.trim();
      // A second reviewer signs the new content: one signature verifies-by-claim, the other is stale.
      await runCli(['pack', 'sign', dir, '--key', `${b}.key`]);
      const r = await runCli(['pack', 'verify', dir]);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('refused: ');
      expect(r.stdout).toContain(
        `does not verify: it was made for ${signed}, and the pack is locked as ${now} now`,
      );
      expect(r.stdout).not.toMatch(/^verified/m);
      // With the keys, the cryptographic answer agrees: b's verifies, a's does not.
      const withKeys = await runCli(['pack', 'verify', dir, '--pubkey', `${a}.pub`]);
      expect(withKeys.code).toBe(1);
      expect((await runCli(['pack', 'verify', dir, '--pubkey', `${b}.pub`])).code).toBe(0);
    },
    300_000,
  );

  it('an unsigned pack is verified against its lock, as before; a sig file without digests is unchecked, not refused', async () => {
    const dir = guard();
    await runCli(['pack', 'lock', dir]);
    const plain = await runCli(['pack', 'verify', dir]);
    expect([plain.code, plain.stdout.split('\n')[0]]).toEqual([0, expect.stringMatching(/^verified: /)]);
    const key = await keyPair();
    await runCli(['pack', 'sign', dir, '--key', `${key}.key`]);
    const sig = join(dir, 'hookpack.sig');
    const old = JSON.parse(readFileSync(sig, 'utf8'));
    for (const s of old.signatures) delete s.digest; // as an earlier hookwarden wrote it
    writeFileSync(sig, JSON.stringify(old));
    const r = await runCli(['pack', 'verify', dir]);
    expect([r.code, r.stdout.split('\n')[0]]).toEqual([
      0,
      expect.stringMatching(/^verified against its lock, signature NOT checked/),
    ]);
  }, 300_000);
});
