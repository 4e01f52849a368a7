// Packs pinned by URL, fetched from a real HTTP server on 127.0.0.1: good, tampered, wrong-key,
// truncated, oversized and path-traversal bundles; ETag and 304; the last known good kept through
// every failure; a restart without the network; polling.
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReloadResult } from '../../src/index.js';
import { lockPack } from '../../src/packs/lock-pack.js';
import { bundlePack } from '../../src/packs/remote/bundle-pack.js';
import { resolveRemoteOptions } from '../../src/packs/remote/options.js';
import { ensurePrivateDir } from '../../src/packs/remote/pack-cache.js';
import { RemotePacks } from '../../src/packs/remote/remote-packs.js';
import { signPack } from '../../src/packs/sign-pack.js';
import { BundleServer, tgzOfDir } from '../helpers/bundle-server.js';
import { input, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';
import { loadConfig } from '../helpers/load-config.js';
import { keyPair, script, writePack } from '../helpers/pack.js';
import { tgzOf } from '../helpers/tar.js';

type Keys = Awaited<ReturnType<typeof keyPair>>;

/** A locked pack whose BeforeTool hook denies with `reason`, signed with `keys`. */
async function signedPack(reason: string, keys: Keys): Promise<string> {
  const dir = writePack({
    hooks: { BeforeTool: [{ matcher: 'Bash', hooks: [{ name: 'guard', command: './check.sh' }] }] },
    files: { 'check.sh': script({ decision: 'deny', reason }) },
  });
  await lockPack(dir);
  await signPack(dir, readFileSync(keys.key));
  return dir;
}

async function bundleOf(dir: string): Promise<Buffer> {
  const out = join(tempDir('hw-bundle-'), 'pack.tar.gz');
  await bundlePack(dir, out);
  return readFileSync(out);
}

const bash = input({ toolName: 'Bash', toolInput: { command: 'ls' } });

async function setup(pin: Record<string, unknown> = {}) {
  const keys = await keyPair();
  const server = new BundleServer();
  await server.start();
  const v1 = await bundleOf(await signedPack('v1', keys));
  server.routes.set('/guard.tar.gz', { body: v1, etag: '"v1"' });
  const base = tempDir('hw-remote-');
  const policy = writeConfig(base, 'policy.json', {
    packs: [{ url: server.url('/guard.tar.gz'), name: 'guard', publicKeys: [keys.pub], ...pin }],
  });
  const cacheDir = join(base, 'cache');
  const options = { policy, root: tempDir(), remotePacks: { cacheDir } };
  return { keys, server, policy, cacheDir, options, v1 };
}

/** Serves `body` instead of the good bundle, with a new ETag. */
const serve = (server: BundleServer, route: Parameters<BundleServer['routes']['set']>[1]) =>
  server.routes.set('/guard.tar.gz', { etag: `"${Math.random()}"`, ...route });

describe('a pack pinned by url', () => {
  it('is fetched, verified and run at policy scope; the cache is private and content-addressed', async () => {
    const { server, options, cacheDir } = await setup();
    await withExecutor(options, async (hw, warnings) => {
      expect(warnings).toEqual([]);
      const r = await hw.dispatch('BeforeTool', bash);
      expect(r).toMatchObject({ decision: 'deny', reason: 'v1', decidedBy: 'guard' });
      expect(r.hooks).toMatchObject([{ id: 'guard', scope: 'policy', outcome: 'deny' }]);
    });
    expect(server.requests).toEqual([{ path: '/guard.tar.gz', ifNoneMatch: undefined, status: 200 }]);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    const entries = readdirSync(cacheDir).sort();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(entries[1]).toMatch(/^url-[0-9a-f]{64}\.json$/);
  });

  it.each([
    ['tampered (a file changed after signing)', 'tampered', 'changed since the lock: check.sh'],
    ['signed by a key the pin does not trust', 'wrong-key', 'no signature verifies with a trusted key'],
    ['truncated (the connection drops)', 'cut', 'download failed'],
    ['truncated (a short file)', 'short', 'corrupt or truncated'],
    ['oversized (Content-Length)', 'big', 'at most 100000 are accepted'],
    ['oversized (chunked)', 'big-chunked', 'larger than 100000 bytes'],
    ['carrying a path-traversal entry', 'traversal', 'leaves the bundle'],
    ['an HTTP error', '500', 'HTTP 500'],
  ])(
    'with no earlier copy, a bundle %s is refused and deny-capable events deny',
    async (_what, kind, message) => {
      const { server, options, keys, v1, cacheDir } = await setup();
      const route = await badRoute(kind, keys, v1);
      serve(server, route);
      const opts = { ...options, remotePacks: { cacheDir, maxBundleBytes: 100_000 } };
      await withExecutor(opts, async (hw, warnings) => {
        const r = await hw.dispatch('BeforeTool', bash);
        expect(r.decision).toBe('deny');
        expect(r.decidedBy).toBe('policy');
        expect(r.reason).toContain(message);
        expect(r.reason).toContain('no earlier verified copy is cached');
        expect(warnings.join('\n')).toContain(message);
      });
      // Nothing of a refused bundle is left outside the cache, and no record makes it "good".
      expect(readdirSync(cacheDir).filter((n) => n.startsWith('url-'))).toEqual([]);
      expect(readdirSync(join(cacheDir, '..')).sort()).toEqual(['cache', 'policy.json']);
    },
  );

  it('answers a matching If-None-Match with 304 on reload, and takes a new bundle when the ETag moves', async () => {
    const { server, options, keys } = await setup();
    await withExecutor(options, async (hw) => {
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v1');
      const again = await hw.reload();
      expect(again.ok).toBe(true);
      expect(server.requests.at(-1)).toEqual({ path: '/guard.tar.gz', ifNoneMatch: '"v1"', status: 304 });
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v1');

      server.routes.set('/guard.tar.gz', {
        body: await bundleOf(await signedPack('v2', keys)),
        etag: '"v2"',
      });
      expect((await hw.reload()).ok).toBe(true);
      expect(server.requests.at(-1)).toEqual({ path: '/guard.tar.gz', ifNoneMatch: '"v1"', status: 200 });
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v2');
    });
  });

  it('keeps the last known good through a tampered bundle, a server error and a dead server', async () => {
    const { server, options, keys, v1 } = await setup();
    await withExecutor(options, async (hw, warnings) => {
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v1');
      for (const kind of ['tampered', 'wrong-key', '500']) {
        serve(server, await badRoute(kind, keys, v1));
        const r = await hw.reload();
        expect(r.ok).toBe(true);
        expect(warnings.at(-1)).toMatch(/the last known good copy sha256:[0-9a-f]{64} stays in force/);
        expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v1');
      }
      await server.close();
      expect((await hw.reload()).ok).toBe(true);
      expect(warnings.at(-1)).toContain('download failed');
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v1');
    });
  });

  it('starts from the cache when the server cannot be reached (a restart without the network)', async () => {
    const { server, options } = await setup();
    await withExecutor(options, async (hw) => {
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v1');
    });
    await server.close();
    await withExecutor(options, async (hw, warnings) => {
      expect(warnings.join('\n')).toMatch(/download failed.*last known good copy sha256:\S+ stays in force/);
      const r = await hw.dispatch('BeforeTool', bash);
      expect(r).toMatchObject({ decision: 'deny', reason: 'v1', decidedBy: 'guard' });
    });
  });

  it('with revalidate "when-stale", a bundle checked less than pollSeconds ago is used without a request', async () => {
    const { server, options, cacheDir } = await setup({ pollSeconds: 3600 });
    const stale = { ...options, remotePacks: { cacheDir, revalidate: 'when-stale' as const } };
    await withExecutor(stale, async (hw) =>
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v1'),
    );
    await withExecutor(stale, async (hw) =>
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v1'),
    );
    expect(server.requests).toHaveLength(1);
    // The default ("always") asks at every start.
    await withExecutor(options, async () => {});
    expect(server.requests.at(-1)).toMatchObject({ ifNoneMatch: '"v1"', status: 304 });
  });

  it('pinned by digest, a cached bundle is used without any request', async () => {
    const { server, keys, cacheDir } = await setup();
    const dir = await signedPack('by digest', keys);
    const { digest } = await lockPack(dir);
    server.routes.set('/pinned.tar.gz', { body: await bundleOf(dir), etag: '"p"' });
    const policy = writeConfig(tempDir(), 'policy.json', {
      packs: [{ url: server.url('/pinned.tar.gz'), digest }],
    });
    const options = { policy, root: tempDir(), remotePacks: { cacheDir } };
    await withExecutor(options, async (hw) =>
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('by digest'),
    );
    const count = server.requests.length;
    await withExecutor(options, async (hw) =>
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('by digest'),
    );
    expect(server.requests).toHaveLength(count);
  });

  it('is polled every pollSeconds with If-None-Match, and a new bundle is swapped in', async () => {
    const { server, options, keys } = await setup({ pollSeconds: 1 });
    const reloads: ReloadResult[] = [];
    let reloaded: (r: ReloadResult) => void = () => {};
    const onReload = (r: ReloadResult) => {
      reloads.push(r);
      reloaded(r);
    };
    const opts = { ...options, onReload };
    await withExecutor(opts, async (hw) => {
      const poll = await server.nextRequest();
      expect(poll).toEqual({ path: '/guard.tar.gz', ifNoneMatch: '"v1"', status: 304 });
      expect(reloads).toEqual([]); // nothing changed: no reload
      const swapped = new Promise<ReloadResult>((resolve) => (reloaded = resolve));
      server.routes.set('/guard.tar.gz', {
        body: await bundleOf(await signedPack('v2', keys)),
        etag: '"v2"',
      });
      expect((await swapped).ok).toBe(true);
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v2');
    });
  });

  it('follows a redirect on loopback, and refuses one that leaves https for plain http elsewhere', async () => {
    const { server, options, v1 } = await setup();
    server.routes.set('/guard.tar.gz', { status: 302, headers: { location: '/real/guard.tar.gz' } });
    server.routes.set('/real/guard.tar.gz', { body: v1, etag: '"v1"' });
    await withExecutor(options, async (hw) =>
      expect((await hw.dispatch('BeforeTool', bash)).reason).toBe('v1'),
    );
    const seen = server.requests.length;
    // Never contacted: the hop is refused before any request.
    server.routes.set('/guard.tar.gz', {
      status: 302,
      headers: { location: 'http://hookwarden.invalid/x.tgz' },
    });
    await withExecutor(options, async (_hw, warnings) => {
      expect(warnings.join('\n')).toContain(
        'redirected to http://hookwarden.invalid/x.tgz: plain http is allowed only',
      );
    });
    expect(server.requests).toHaveLength(seen + 1);
  });

  it('refuses a cache directory that others can reach', async () => {
    const { options, cacheDir } = await setup();
    mkdirSync(cacheDir, { mode: 0o755 });
    chmodSync(cacheDir, 0o755);
    await withExecutor(options, async (hw, warnings) => {
      expect((await hw.dispatch('BeforeTool', bash)).decision).toBe('deny');
      expect(warnings.join('\n')).toContain(`run chmod 700 ${cacheDir}`);
    });
  });
});

describe('the pack cache directory', () => {
  it('is made 0700; 0711 is accepted; readable, writable, symlinked or foreign ones are refused', async () => {
    const base = tempDir();
    const made = join(base, 'a', 'b');
    await ensurePrivateDir(made);
    expect(statSync(made).mode & 0o777).toBe(0o700);
    chmodSync(made, 0o711);
    await expect(ensurePrivateDir(made)).resolves.toBeUndefined();
    for (const mode of [0o750, 0o703, 0o755]) {
      chmodSync(made, mode);
      await expect(ensurePrivateDir(made)).rejects.toThrow(`run chmod 700 ${made}`);
    }
    chmodSync(made, 0o700);
    symlinkSync(made, join(base, 'link'));
    await expect(ensurePrivateDir(join(base, 'link'))).rejects.toThrow('is not a directory (a symlink?)');
    if (process.getuid?.() === 0) {
      chownSync(made, 65534, 65534);
      await expect(ensurePrivateDir(made)).rejects.toThrow('belongs to uid 65534, not to this user');
    }
  });
});

describe('the remotePacks option', () => {
  it('is validated at the boundary, naming the field and the value', async () => {
    const { createExecutor } = await import('../../src/index.js');
    await expect(createExecutor({ remotePacks: { maxFiles: -1 } })).rejects.toThrow(
      'remotePacks.maxFiles: expected a positive integer, got -1',
    );
    await expect(
      createExecutor({ remotePacks: { revalidate: 'sometimes' } as unknown as { revalidate: 'always' } }),
    ).rejects.toThrow('remotePacks.revalidate: expected "always" or "when-stale", got "sometimes"');
    await expect(
      createExecutor({ remotePacks: { cacheDir: '/tmp', extra: 1 } as unknown as { cacheDir: string } }),
    ).rejects.toThrow(/remotePacks/);
  });
});

describe('url pin fields', () => {
  const problems = async (pin: Record<string, unknown>, scope: 'policy' | 'project' = 'policy') => {
    const base = tempDir();
    const value = { packs: [pin] };
    const spec = { kind: 'object' as const, value, scope, label: '<test>', dir: base };
    const loaded = await loadConfig({
      config: scope === 'policy' ? [] : [spec],
      policy: scope === 'policy' ? [spec] : [],
      remote: new RemotePacks(resolveRemoteOptions({ cacheDir: join(base, 'cache') })),
    });
    return loaded.diagnostics.map((d) => `${d.path}: ${d.message}`).join('\n');
  };

  it.each([
    [
      { url: 'https://example.invalid/g.tgz', path: 'packs/g', digest: `sha256:${'a'.repeat(64)}` },
      'not both',
    ],
    [{ digest: `sha256:${'a'.repeat(64)}` }, 'expected "path" (a pack directory) or "url"'],
    [{ url: 'https://example.invalid/g.tgz' }, 'a url pin needs "digest" or "publicKeys"'],
    [
      { url: 'https://example.invalid/g.tgz', publicKeys: ['k.pub'], requireSignature: false },
      'packs[0].requireSignature: a url pin without a digest must require a signature',
    ],
    [
      { url: 'http://example.invalid/g.tgz', digest: `sha256:${'a'.repeat(64)}` },
      'plain http is allowed only to a loopback',
    ],
    [
      { url: 'ftp://127.0.0.1/g.tgz', digest: `sha256:${'a'.repeat(64)}` },
      'expected an https:// URL, got a ftp: URL',
    ],
    [
      { url: 'https://u:p@example.invalid/g.tgz', digest: `sha256:${'a'.repeat(64)}` },
      'may not carry a user or password',
    ],
    [
      { url: 'https://example.invalid/g.tgz', publicKeys: ['k.pub'] },
      'packs[0]: a url pin without a digest needs "name": the pack the URL must serve',
    ],
    [
      { url: 'https://example.invalid/g.tgz', digest: `sha256:${'a'.repeat(64)}`, minVersion: 'v1' },
      'packs[0].minVersion: expected a semantic version such as "1.2.0"',
    ],
    [{ path: 'packs/g', pollSeconds: 5 }, 'packs[0].pollSeconds: only a url pin is polled'],
    [
      { url: 'https://example.invalid/g.tgz', digest: `sha256:${'a'.repeat(64)}`, pollSeconds: 0 },
      'expected at least 1',
    ],
  ])('%j is refused: %s', async (pin, message) => {
    expect(await problems(pin)).toContain(message);
  });

  it('warns that a pin with a digest is never polled', async () => {
    expect(
      await problems({
        url: 'https://example.invalid/g.tgz',
        digest: `sha256:${'a'.repeat(64)}`,
        pollSeconds: 60,
      }),
    ).toContain('a pin with a digest is never polled');
  });

  it('a url pin in a project file cannot ask for policy scope (only policy files pin at policy scope)', async () => {
    const out = await problems(
      { url: 'https://example.invalid/g.tgz', digest: `sha256:${'a'.repeat(64)}`, scope: 'policy' },
      'project',
    );
    expect(out).toContain('only a policy file');
  });
});

/** A route that serves a bad bundle of the given kind. */
async function badRoute(kind: string, keys: Keys, good: Buffer) {
  switch (kind) {
    case 'tampered': {
      const dir = await signedPack('v-evil', keys);
      writeFileSync(join(dir, 'check.sh'), script({ decision: 'allow', reason: 'tampered' }));
      return { body: tgzOfDir(dir) };
    }
    case 'wrong-key':
      return { body: await bundleOf(await signedPack('v-other', await keyPair('intruder'))) };
    case 'cut':
      return { body: good, cutAfter: Math.floor(good.length / 2) };
    case 'short':
      return { body: good.subarray(0, good.length - 40) };
    case 'big':
      return { body: Buffer.alloc(200_000, 1) };
    case 'big-chunked':
      return { body: Buffer.alloc(200_000, 1), chunked: true };
    case 'traversal':
      return {
        body: tgzOf([
          { path: 'hookpack.json', data: '{}' },
          { path: '../../escaped.sh', data: '#!/bin/sh\n' },
        ]),
      };
    case '500':
      return { status: 500, body: Buffer.from('oops') };
    default:
      throw new Error(kind);
  }
}
