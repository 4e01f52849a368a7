import { createHash, createPublicKey } from 'node:crypto';
import { readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookwardenError } from '../../src/index.js';
import { lockPack } from '../../src/packs/lock-pack.js';
import { signPack } from '../../src/packs/sign-pack.js';
import { verifyPack } from '../../src/packs/verify.js';
import { tempDir, writeFile } from '../helpers/fixture.js';
import { keyPair, script, writePack } from '../helpers/pack.js';

const pem = (file: string) => readFileSync(file, 'utf8');
const guard = () =>
  writePack({
    hooks: { BeforeTool: [{ hooks: [{ name: 'guard', command: './check.sh' }] }] },
    files: { 'check.sh': script({ decision: 'allow' }), 'lib/util.js': 'export default () => {}\n' },
  });

async function signedPack() {
  const dir = guard();
  const { digest } = await lockPack(dir);
  const k = await keyPair();
  await signPack(dir, pem(k.key));
  return { dir, digest, k };
}

describe('lock, sign, verify round trip', () => {
  it('verifies an untouched pack with its digest and the signer’s key', async () => {
    const { dir, digest, k } = await signedPack();
    const r = await verifyPack(dir, { digest, publicKeys: [pem(k.pub)] });
    expect(r).toMatchObject({
      ok: true,
      digest,
      lockDigest: digest,
      fileCount: 3,
      changed: [],
      added: [],
      removed: [],
      digestMatches: true,
      signatureRequired: true,
      verifiedBy: k.keyId,
      problems: [],
    });
    expect(await verifyPack(dir)).toMatchObject({
      ok: true,
      digestMatches: undefined,
      verifiedBy: undefined,
    });
  });

  it('names a key by the SHA-256 of its SPKI DER', async () => {
    const k = await keyPair();
    const der = createPublicKey(pem(k.pub)).export({ type: 'spki', format: 'der' });
    expect(k.keyId).toBe(`sha256:${createHash('sha256').update(der).digest('hex')}`);
  });

  it('writes the private key with mode 0600 and refuses to overwrite a key', async () => {
    const k = await keyPair();
    expect(statSync(k.key).mode & 0o777).toBe(0o600);
    expect(statSync(k.pub).mode & 0o777).toBe(0o644);
    expect(pem(k.key)).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(pem(k.pub)).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    const { writePackKeyPair } = await import('../../src/packs/keys.js');
    await expect(writePackKeyPair(k.key.slice(0, -'.key'.length))).rejects.toThrow(/already exists/);
  });

  it('keeps several signatures side by side; signing again with a key replaces its own', async () => {
    const { dir, k } = await signedPack();
    const k2 = await keyPair('second');
    expect((await signPack(dir, pem(k2.key))).signatureCount).toBe(2);
    expect((await signPack(dir, pem(k2.key))).signatureCount).toBe(2);
    const sig = JSON.parse(readFileSync(join(dir, 'hookpack.sig'), 'utf8'));
    expect(sig.signatures.map((s: { keyId: string }) => s.keyId)).toEqual([k.keyId, k2.keyId]);
    // Each signature names the digest it was made for (verify says so when the pack is locked again).
    expect(sig.signatures[0]).toEqual({
      keyId: k.keyId,
      algorithm: 'ed25519',
      signature: expect.any(String),
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    for (const key of [k, k2])
      expect((await verifyPack(dir, { publicKeys: [pem(key.pub)] })).verifiedBy).toBe(key.keyId);
  });
});

describe('tampering is refused, naming what changed', () => {
  it('a changed file', async () => {
    const { dir, digest, k } = await signedPack();
    writeFileSync(join(dir, 'check.sh'), script({ decision: 'deny' }));
    const r = await verifyPack(dir, { digest, publicKeys: [pem(k.pub)] });
    expect(r.ok).toBe(false);
    expect(r.changed).toEqual(['check.sh']);
    expect(r.problems).toContain('changed since the lock: check.sh');
    expect(r.problems.join('\n')).toMatch(/^digest sha256:\w+ does not match the pinned sha256:/m);
    expect(r.verifiedBy).toBeUndefined();
  });

  it('an added file, also in a new folder', async () => {
    const { dir } = await signedPack();
    writeFile(join(dir, 'evil.sh'), 'rm -rf /');
    writeFile(join(dir, 'lib/deep/x.py'), 'x');
    const r = await verifyPack(dir);
    expect([r.ok, r.added]).toEqual([false, ['evil.sh', 'lib/deep/x.py']]);
    expect(r.problems).toEqual(['added (not in the lock): evil.sh, lib/deep/x.py']);
  });

  it('a removed file', async () => {
    const { dir } = await signedPack();
    rmSync(join(dir, 'lib/util.js'));
    const r = await verifyPack(dir);
    expect([r.ok, r.removed, r.problems]).toEqual([
      false,
      ['lib/util.js'],
      ['removed (listed in the lock): lib/util.js'],
    ]);
  });

  it('a changed hookpack.json', async () => {
    const { dir, k } = await signedPack();
    const m = JSON.parse(readFileSync(join(dir, 'hookpack.json'), 'utf8'));
    m.hooks = {};
    writeFileSync(join(dir, 'hookpack.json'), JSON.stringify(m));
    const r = await verifyPack(dir, { publicKeys: [pem(k.pub)] });
    expect([r.ok, r.changed]).toEqual([false, ['hookpack.json']]);
  });

  it('files re-locked after tampering: the pinned digest and the signature both refuse it', async () => {
    const { dir, digest, k } = await signedPack();
    writeFileSync(join(dir, 'check.sh'), script({ decision: 'deny' }));
    const relocked = await lockPack(dir);
    expect(relocked.staleSignatures).toBe(true);
    const r = await verifyPack(dir, { digest, publicKeys: [pem(k.pub)] });
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([
      `digest ${relocked.digest} does not match the pinned ${digest}`,
      `no signature verifies with a trusted key (trusted: ${k.keyId}; hookpack.sig has: ${k.keyId} (trusted, does not verify))`,
    ]);
  });

  it('a lock whose digest was edited by hand', async () => {
    const { dir } = await signedPack();
    const lock = JSON.parse(readFileSync(join(dir, 'hookpack.lock.json'), 'utf8'));
    lock.digest = `sha256:${'0'.repeat(64)}`;
    writeFileSync(join(dir, 'hookpack.lock.json'), JSON.stringify(lock));
    expect((await verifyPack(dir)).problems[0]).toMatch(/does not match its own file list .* edited by hand/);
  });

  it('a signature swapped in from another pack signed by the same key', async () => {
    const { dir, k } = await signedPack();
    const other = writePack({ name: 'other', files: { 'x.txt': 'x' } });
    await lockPack(other);
    await signPack(other, pem(k.key));
    writeFileSync(join(dir, 'hookpack.sig'), readFileSync(join(other, 'hookpack.sig')));
    const r = await verifyPack(dir, { publicKeys: [pem(k.pub)] });
    expect(r.ok).toBe(false);
    expect(r.signatures).toEqual([{ keyId: k.keyId, trusted: true, verifies: false }]);
    expect(r.problems[0]).toMatch(/no signature verifies with a trusted key .*\(trusted, does not verify\)/);
  });

  it('a key that did not sign the pack', async () => {
    const { dir, k } = await signedPack();
    const stranger = await keyPair('stranger');
    const r = await verifyPack(dir, { publicKeys: [pem(stranger.pub)] });
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([
      `no signature verifies with a trusted key (trusted: ${stranger.keyId}; hookpack.sig has: ${k.keyId} (not a trusted key))`,
    ]);
  });

  it('a required signature that is missing', async () => {
    const dir = guard();
    await lockPack(dir);
    const k = await keyPair();
    const r = await verifyPack(dir, { publicKeys: [pem(k.pub)] });
    expect(r.problems).toEqual(['no hookpack.sig (run `hookwarden pack sign <dir> --key <file>`)']);
    const optional = await verifyPack(dir, { publicKeys: [pem(k.pub)], requireSignature: false });
    expect([optional.ok, optional.warnings.length]).toEqual([true, 1]);
  });

  it('a pack that was never locked', async () => {
    const r = await verifyPack(guard());
    expect(r.problems).toEqual(['no hookpack.lock.json (run `hookwarden pack lock <dir>`)']);
  });
});

describe('key rotation', () => {
  it('accepts a signature by ANY trusted key, so old and new keys can overlap', async () => {
    const { dir, k: oldKey } = await signedPack();
    const newKey = await keyPair('new');
    const both = [pem(oldKey.pub), pem(newKey.pub)];
    // 1. Operators trust both keys while the pack is still signed by the old one only.
    expect((await verifyPack(dir, { publicKeys: both })).verifiedBy).toBe(oldKey.keyId);
    // 2. The pack gets a second signature by the new key.
    await signPack(dir, pem(newKey.key));
    expect((await verifyPack(dir, { publicKeys: [pem(newKey.pub)] })).ok).toBe(true);
    // 3. The old signature is dropped; operators still trusting both keys keep working.
    const sig = JSON.parse(readFileSync(join(dir, 'hookpack.sig'), 'utf8'));
    sig.signatures = sig.signatures.filter((s: { keyId: string }) => s.keyId === newKey.keyId);
    writeFileSync(join(dir, 'hookpack.sig'), JSON.stringify(sig));
    expect((await verifyPack(dir, { publicKeys: both })).verifiedBy).toBe(newKey.keyId);
    // 4. Operators that still trust only the retired key refuse it.
    expect((await verifyPack(dir, { publicKeys: [pem(oldKey.pub)] })).ok).toBe(false);
  });
});

describe('authoring errors', () => {
  it('refuses to sign a pack whose files do not match its lock', async () => {
    const dir = guard();
    await lockPack(dir);
    writeFile(join(dir, 'new.txt'), 'n');
    const k = await keyPair();
    await expect(signPack(dir, pem(k.key))).rejects.toThrow(
      /cannot sign .*added \(not in the lock\): new\.txt/,
    );
  });

  it('refuses a key that is not an Ed25519 private key', async () => {
    const { dir, k } = await signedPack();
    await expect(signPack(dir, pem(k.pub))).rejects.toThrow(/not a PEM private key/);
  });

  it('refuses to lock an invalid manifest, naming the JSON path and value', async () => {
    const dir = writePack();
    writeFileSync(join(dir, 'hookpack.json'), JSON.stringify({ name: 'bad name!', version: '', hooks: [] }));
    const err = await lockPack(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HookwardenError);
    expect((err as HookwardenError).code).toBe('pack_error');
    expect((err as HookwardenError).problems).toEqual([
      'hookpack.json: name: expected 1-128 characters from A-Z a-z 0-9 . _ : @ / + - (starting with a letter or digit), got "bad name!"',
      'hookpack.json: version: expected a version string such as "1.2.0", got ""',
      'hookpack.json: hooks: expected an object mapping event names to arrays, got []',
    ]);
  });

  it('refuses to lock a pack whose hook reaches outside it', async () => {
    const dir = writePack({ hooks: { BeforeTool: [{ hooks: [{ command: '../outside.sh' }] }] } });
    await expect(lockPack(dir)).rejects.toThrow(
      'hooks.BeforeTool[0].hooks[0].command: path leaves the pack directory (a pack may only refer to its own files), got "../outside.sh"',
    );
  });
});

describe('the lock and signature files are never followed through a symlink', () => {
  it('pack lock refuses to write through a planted hookpack.lock.json symlink and leaves its target alone', async () => {
    const dir = guard();
    const victim = writeFile(join(tempDir(), 'bashrc'), 'original\n');
    symlinkSync(victim, join(dir, 'hookpack.lock.json'));
    await expect(lockPack(dir)).rejects.toThrow(/cannot write .*hookpack\.lock\.json: it is a symlink/);
    expect(readFileSync(victim, 'utf8')).toBe('original\n');
  });

  it('pack sign refuses a planted hookpack.sig symlink; verify refuses a symlinked lock', async () => {
    const dir = guard();
    await lockPack(dir);
    const victim = writeFile(join(tempDir(), 'target'), 'original\n');
    symlinkSync(victim, join(dir, 'hookpack.sig'));
    const k = await keyPair();
    await expect(signPack(dir, pem(k.key))).rejects.toThrow(/hookpack\.sig is a symlink/);
    expect(readFileSync(victim, 'utf8')).toBe('original\n');

    const other = guard();
    const { digest } = await lockPack(other);
    const real = join(tempDir(), 'lock.json');
    renameSync(join(other, 'hookpack.lock.json'), real);
    symlinkSync(real, join(other, 'hookpack.lock.json'));
    const r = await verifyPack(other, { digest });
    expect(r.problems).toEqual(['hookpack.lock.json is a symlink; symlinks are refused in a pack']);
  });
});
