// A pack that ships wasm modules (examples/packs/wasm-guard): its .wasm files are in its digest and
// its signature like scripts, so a module changed after signing — even one that still compiles and
// decides the same — refuses the pack; the untouched pack verifies, loads and passes its fixtures.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testPack } from '../../src/fixture-runner/test-pack.js';
import { signPack } from '../../src/packs/sign-pack.js';
import { verifyPack } from '../../src/packs/verify.js';
import { input, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';
import { keyPair } from '../helpers/pack.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/packs/wasm-guard', import.meta.url));
const C_MODULE = 'hooks/protect-paths-c.wasm';
const RUST_MODULE = 'hooks/protect-paths-rust.wasm';

/** A copy of the example pack under packs/wasm-guard of a fresh config dir, signed by a new key. */
async function signedCopy() {
  const base = tempDir('hw-wasmpack-');
  const dir = join(base, 'packs', 'wasm-guard');
  cpSync(EXAMPLE, dir, { recursive: true });
  const k = await keyPair();
  await signPack(dir, readFileSync(k.key, 'utf8'));
  cpSync(k.pub, join(base, 'keys', 'reviewer.pub'));
  const { digest } = JSON.parse(readFileSync(join(dir, 'hookpack.lock.json'), 'utf8')) as { digest: string };
  return { base, dir, digest, pub: readFileSync(k.pub, 'utf8') };
}

/** A custom section (id 0) appended: the module still compiles and decides the same. */
function appendCustomSection(file: string): void {
  const name = Buffer.from('note');
  const payload = Buffer.from('harmless?');
  const body = Buffer.concat([Buffer.from([name.length]), name, payload]);
  writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from([0, body.length]), body]));
}

const write = (file_path: string) => input({ toolName: 'Write', toolInput: { file_path, content: 'x' } });

describe('a pack that ships wasm modules', () => {
  it('examples/packs/wasm-guard is locked and its fixtures pass', async () => {
    const lock = JSON.parse(readFileSync(join(EXAMPLE, 'hookpack.lock.json'), 'utf8')) as {
      digest: string;
      files: Record<string, string>;
    };
    expect(Object.keys(lock.files)).toEqual(expect.arrayContaining([C_MODULE, RUST_MODULE]));
    expect(await verifyPack(EXAMPLE, { digest: lock.digest })).toMatchObject({ ok: true });
    expect(await testPack(EXAMPLE)).toMatchObject({ locked: true, failed: 0 });
  });

  it.each([
    ['appended a custom section', C_MODULE, appendCustomSection],
    [
      'flipped a byte',
      RUST_MODULE,
      (f: string) => {
        const b = readFileSync(f);
        b[b.length - 1]! ^= 1;
        writeFileSync(f, b);
      },
    ],
  ])(
    'whose module was changed after signing (%s) is refused, naming the module',
    async (_how, rel, change) => {
      const { base, dir, digest, pub } = await signedCopy();
      expect(await verifyPack(dir, { digest, publicKeys: [pub] })).toMatchObject({ ok: true });
      change(join(dir, rel));
      const r = await verifyPack(dir, { digest, publicKeys: [pub] });
      expect(r.ok).toBe(false);
      expect(r.changed).toEqual([rel]);
      expect(r.verifiedBy).toBeUndefined();
      // Pinned by key alone in a policy file: deny-capable events deny, naming the module.
      const cfg = writeConfig(base, 'policy.json', {
        packs: [{ path: 'packs/wasm-guard', publicKeys: ['keys/reviewer.pub'], scope: 'policy' }],
      });
      await withExecutor({ policy: cfg }, async (hw) => {
        const d = await hw.dispatch('BeforeTool', write('README.md'));
        expect(d).toMatchObject({ decision: 'deny', decidedBy: 'policy' });
        expect(d.reason).toContain(`changed since the lock: ${rel}`);
      });
    },
  );

  it('untouched and pinned by key in a policy file, runs its C and Rust modules at policy scope', async () => {
    const { base } = await signedCopy();
    const cfg = writeConfig(base, 'policy.json', {
      packs: [{ path: 'packs/wasm-guard', publicKeys: ['keys/reviewer.pub'], scope: 'policy' }],
    });
    await withExecutor({ policy: cfg }, async (hw) => {
      const denied = await hw.dispatch('BeforeTool', write('/etc/hosts'));
      expect(denied.decision).toBe('deny');
      expect(denied.hooks.map((h) => [h.type, h.scope])).toContainEqual(['wasm', 'policy']);
      const fine = await hw.dispatch('BeforeTool', write('src/app.ts'));
      expect(fine.decision).not.toBe('deny');
      expect(fine.hooks.map((h) => [h.id, h.outcome])).toEqual([
        ['protect-paths-c', 'proceed'],
        ['protect-paths-rust', 'proceed'],
      ]);
    });
  });
});
