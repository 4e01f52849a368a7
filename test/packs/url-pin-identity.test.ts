// What a url pin binds besides a signer (docs/packs.md): the pack's name, a minimum
// version, and no rollback below the last version verified from the URL; the last known good stays
// in force when a bundle breaks any of it. And key rotation through the cache: a signature file
// republished for the same content replaces the cached one, so removing the old key afterwards
// keeps the pack loading.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockPack } from '../../src/packs/lock-pack.js';
import { bundlePack } from '../../src/packs/remote/bundle-pack.js';
import { signPack } from '../../src/packs/sign-pack.js';
import { BundleServer } from '../helpers/bundle-server.js';
import { input, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';
import { keyPair, script, writePack } from '../helpers/pack.js';

type Keys = Awaited<ReturnType<typeof keyPair>>;
const bash = input({ toolName: 'Bash', toolInput: { command: 'ls' } });

/** A locked pack `name`@`version` denying with `reason`, signed by every key of `keys`. */
async function pack(name: string, version: string, reason: string, keys: readonly Keys[]): Promise<string> {
  const dir = writePack({
    name,
    version,
    hooks: { BeforeTool: [{ matcher: 'Bash', hooks: [{ name: 'guard', command: './check.sh' }] }] },
    files: { 'check.sh': script({ decision: 'deny', reason }) },
  });
  await lockPack(dir);
  for (const k of keys) await signPack(dir, readFileSync(k.key));
  return dir;
}

async function bundleOf(dir: string): Promise<Buffer> {
  const out = join(tempDir('hw-bundle-'), 'pack.tar.gz');
  await bundlePack(dir, out);
  return readFileSync(out);
}

async function setup(pin: Record<string, unknown>, first: Buffer) {
  const server = new BundleServer();
  await server.start();
  server.routes.set('/guard.tar.gz', { body: first, etag: '"1"' });
  const base = tempDir('hw-url-id-');
  const policyFile = join(base, 'policy.json');
  const writePolicy = (p: Record<string, unknown>) =>
    writeConfig(base, 'policy.json', { packs: [{ url: server.url('/guard.tar.gz'), ...p }] });
  writePolicy(pin);
  const options = { policy: policyFile, root: tempDir(), remotePacks: { cacheDir: join(base, 'cache') } };
  let etag = 1;
  const serve = (body: Buffer) => server.routes.set('/guard.tar.gz', { body, etag: `"${++etag}"` });
  return { server, options, serve, writePolicy };
}

describe('a url pin binds the pack by name', () => {
  it('a bundle of another pack signed by the same key is refused; the last known good stays', async () => {
    const keys = await keyPair();
    const guard = await bundleOf(await pack('guard', '1.0.0', 'guard says no', [keys]));
    const lint = await bundleOf(await pack('lint-helper', '9.0.0', 'lint is fine', [keys]));
    const { options, serve } = await setup({ name: 'guard', publicKeys: [keys.pub] }, guard);
    await withExecutor(options, async (hw, warnings) => {
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('guard says no');
      serve(lint);
      await hw.reload();
      expect(await hw.dispatch('BeforeTool', bash)).toMatchObject({
        decision: 'deny',
        reason: 'guard says no',
      });
      expect(warnings.join('\n')).toMatch(
        /is refused: it is the pack "lint-helper", and the pin names "guard"; the last known good copy sha256:\w+ stays in force/,
      );
    });
  });

  it('a replica with an empty cache refuses the other pack outright (deny-capable events deny)', async () => {
    const keys = await keyPair();
    const lint = await bundleOf(await pack('lint-helper', '9.0.0', 'lint is fine', [keys]));
    const { options } = await setup({ name: 'guard', publicKeys: [keys.pub] }, lint);
    await withExecutor(options, async (hw) => {
      const r = await hw.dispatch('BeforeTool', bash);
      expect(r).toMatchObject({ decision: 'deny', decidedBy: 'policy' });
      expect(r.reason).toContain('it is the pack "lint-helper", and the pin names "guard"');
    });
  });
});

describe('a url pin never rolls back', () => {
  it('an older signed version than the last one verified is refused, in this process and after a restart', async () => {
    const keys = await keyPair();
    const v11 = await bundleOf(await pack('guard', '1.1.0', 'v1.1 says no', [keys]));
    const v10 = await bundleOf(await pack('guard', '1.0.0', 'v1.0 says no', [keys]));
    const { options, serve } = await setup({ name: 'guard', publicKeys: [keys.pub] }, v11);
    await withExecutor(options, async (hw, warnings) => {
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v1.1 says no');
      serve(v10);
      await hw.reload();
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v1.1 says no');
      expect(warnings.join('\n')).toContain(
        'version 1.0.0 is older than 1.1.0, the last version verified from this URL (no rollback)',
      );
    });
    // A new process with the same cache remembers 1.1.0.
    await withExecutor(options, async (hw) => {
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v1.1 says no');
    });
  });

  it('minVersion refuses what is older, and a version that is not semantic', async () => {
    const keys = await keyPair();
    for (const [version, message] of [
      ['1.1.9', "version 1.1.9 is older than the pin's minVersion 1.2.0"],
      ['2024-10', 'its version "2024-10" is not a semantic version'],
    ] as const) {
      const old = await bundleOf(await pack('guard', version, 'old', [keys]));
      const { options } = await setup({ name: 'guard', minVersion: '1.2.0', publicKeys: [keys.pub] }, old);
      await withExecutor(options, async (hw) => {
        const r = await hw.dispatch('BeforeTool', bash);
        expect(r).toMatchObject({ decision: 'deny', decidedBy: 'policy' });
        expect(r.reason).toContain(message);
      });
    }
  });

  it('a path pin checks name and minVersion too', async () => {
    const keys = await keyPair();
    const dir = await pack('guard', '1.0.0', 'no', [keys]);
    const base = tempDir('hw-url-id-');
    const policy = writeConfig(base, 'policy.json', {
      packs: [{ path: dir, name: 'other', publicKeys: [keys.pub] }],
    });
    await withExecutor({ policy, root: base }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', bash);
      expect(r.reason).toContain('it is the pack "guard", and the pin names "other"');
    });
  });
});

describe('key rotation through the cache', () => {
  it.each([
    // A key pin asks the server at every load: by step 3 the cache holds the new signatures.
    ['by key', false, (keys: Keys[]) => ({ name: 'guard', publicKeys: keys.map((k) => k.pub) })],
    // A digest pin never asks while its cached copy verifies; once it does not, it asks again.
    [
      'by digest and key',
      true,
      (keys: Keys[], digest?: string) => ({ digest, publicKeys: keys.map((k) => k.pub) }),
    ],
  ])(
    'pinned %s: the republished signature file replaces the cached one, so dropping the old key keeps it loading',
    async (_how, askedAtStep3, pinOf) => {
      const [oldKey, newKey] = [await keyPair('old'), await keyPair('new')];
      const dir = await pack('guard', '1.0.0', 'guard says no', [oldKey]);
      const digest = JSON.parse(readFileSync(join(dir, 'hookpack.lock.json'), 'utf8')).digest as string;
      const { options, serve, writePolicy, server } = await setup(
        pinOf([oldKey], digest),
        await bundleOf(dir),
      );
      await withExecutor(options, async (hw) => {
        expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('guard says no');
      });
      // Step 1 of the rotation: the same content signed by both keys, published again.
      await signPack(dir, readFileSync(newKey.key));
      serve(await bundleOf(dir));
      writePolicy(pinOf([oldKey, newKey], digest));
      await withExecutor(options, async (hw) => {
        expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('guard says no');
      });
      // Step 3: the old key is removed from the pin.
      writePolicy(pinOf([newKey], digest));
      const before = server.requests.length;
      if (!askedAtStep3) server.routes.clear(); // the cache alone must carry the new signatures
      for (let run = 0; run < 2; run++) {
        await withExecutor(options, async (hw, warnings) => {
          const r = await hw.dispatch('BeforeTool', bash);
          expect(r, warnings.join('\n')).toMatchObject({
            decision: 'deny',
            reason: 'guard says no',
            decidedBy: 'guard',
          });
          // (With the server gone the key pin warns that it could not ask, and runs the cached copy.)
          expect(warnings.join('\n')).not.toContain('signature');
        });
      }
      // The digest pin asked once (its copy was refused), then the replaced signature verified.
      if (askedAtStep3) expect(server.requests.length - before).toBe(1);
    },
    60_000,
  );

  it('a cached copy the pin no longer accepts is not reported as "no earlier verified copy"', async () => {
    const [oldKey, newKey] = [await keyPair('old'), await keyPair('new')];
    const first = await bundleOf(await pack('guard', '1.0.0', 'guard says no', [oldKey]));
    const { options, writePolicy } = await setup({ name: 'guard', publicKeys: [oldKey.pub] }, first);
    await withExecutor(options, async (hw) => {
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('guard says no');
    });
    writePolicy({ name: 'guard', publicKeys: [newKey.pub] });
    await withExecutor(options, async (hw) => {
      const r = await hw.dispatch('BeforeTool', bash);
      expect(r).toMatchObject({ decision: 'deny', decidedBy: 'policy' });
      expect(r.reason).not.toContain('no earlier verified copy is cached');
      expect(r.reason).toMatch(
        /it is the last known good copy \(verified [^)]+\), which the pin now refuses/,
      );
    });
  });
});
