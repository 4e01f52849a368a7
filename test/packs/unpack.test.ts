// Unpacking a bundle is safe by construction: each hostile archive is refused as a whole, nothing is
// written outside the target, and what is written is plain files with plain modes.
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { REMOTE_PACK_DEFAULTS } from '../../src/packs/remote/options.js';
import { entryPath, unpackBundle } from '../../src/packs/remote/unpack.js';
import { tempDir } from '../helpers/fixture.js';
import { tarEntry, tarOf, tgzOf } from '../helpers/tar.js';

const LIMITS = { maxBundleBytes: 1024 * 1024, maxUnpackedBytes: 1024 * 1024, maxFiles: 50 };

/** A fresh target inside a fresh parent, so a write that escapes shows up in the parent. */
function target() {
  const parent = tempDir('hw-unpack-');
  return { parent, dest: join(parent, 'pack') };
}

async function refused(bundle: Buffer, limits = LIMITS) {
  const { parent, dest } = target();
  const err = await unpackBundle(bundle, dest, limits).then(
    () => undefined,
    (e: Error & { code?: string }) => e,
  );
  // Nothing lands next to the target, whatever the archive said.
  expect(readdirSync(parent).filter((n) => n !== 'pack')).toEqual([]);
  expect(err?.code).toBe('pack_error');
  return err!.message;
}

describe('unpacking a bundle', () => {
  it('writes plain files with 0644/0755 modes, nested directories included', async () => {
    const { dest } = target();
    const r = await unpackBundle(
      tgzOf([
        { path: './', type: 'Directory', mode: 0o777 },
        { path: 'hookpack.json', data: '{}', mode: 0o666 },
        { path: 'bin/check.sh', data: '#!/bin/sh\n', mode: 0o4755 },
        { path: 'tests/', type: 'Directory' },
        { path: 'tests/a.json', data: '[]' },
      ]),
      dest,
      LIMITS,
    );
    expect(r).toEqual({ files: 3, bytes: 2 + 10 + 2 });
    expect(readFileSync(join(dest, 'bin/check.sh'), 'utf8')).toBe('#!/bin/sh\n');
    expect(lstatSync(join(dest, 'bin/check.sh')).mode & 0o7777).toBe(0o755); // no setuid
    expect(lstatSync(join(dest, 'hookpack.json')).mode & 0o7777).toBe(0o644);
    expect(lstatSync(join(dest, 'tests')).isDirectory()).toBe(true);
  });

  it('also takes a plain (already decompressed) tar', async () => {
    const { dest } = target();
    await unpackBundle(tarOf([{ path: 'a.txt', data: 'x' }]), dest, LIMITS);
    expect(readFileSync(join(dest, 'a.txt'), 'utf8')).toBe('x');
  });

  it.each([
    ['an absolute path', { path: '/etc/hookwarden-evil', data: 'x' }, 'an absolute path'],
    ['a .. component', { path: '../evil.sh', data: 'x' }, 'leaves the bundle'],
    ['a .. in the middle', { path: 'a/../../evil.sh', data: 'x' }, 'leaves the bundle'],
    ['a symlink', { path: 'link', type: 'SymbolicLink', linkpath: '/etc/passwd' }, 'is a symlink'],
    ['a hard link', { path: 'hard', type: 'Link', linkpath: 'hookpack.json' }, 'is a hard link'],
    [
      'a character device',
      { path: 'dev', type: 'CharacterDevice', devmaj: 1, devmin: 3 },
      'device file or FIFO',
    ],
    ['a block device', { path: 'blk', type: 'BlockDevice' }, 'device file or FIFO'],
    ['a FIFO', { path: 'fifo', type: 'FIFO' }, 'device file or FIFO'],
    ['a backslash', { path: '..\\evil', data: 'x' }, 'backslash'],
  ] as const)('refuses %s', async (_what, entry, message) => {
    const msg = await refused(tgzOf([{ path: 'hookpack.json', data: '{}' }, entry]));
    expect(msg).toMatch(/^bundle refused: /);
    expect(msg).toContain(message);
  });

  it('refuses the whole bundle: entries before the bad one are not left behind as a pack', async () => {
    const { dest } = target();
    await expect(
      unpackBundle(
        tgzOf([
          { path: 'hookpack.json', data: '{}' },
          { path: '../x', data: 'x' },
        ]),
        dest,
        LIMITS,
      ),
    ).rejects.toThrow(/leaves the bundle/);
    // The archive is read and checked before anything is written.
    expect(existsSync(join(dest, 'hookpack.json'))).toBe(false);
  });

  it('refuses a gzip bomb at the unpacked-size limit, without inflating it all', async () => {
    // 64 MiB of zeros compress to about 64 KiB: far under the download limit, far over the unpacked one.
    const bomb = gzipSync(Buffer.concat([tarEntry({ path: 'big', data: Buffer.alloc(64 * 1024 * 1024) })]));
    expect(bomb.length).toBeLessThan(LIMITS.maxBundleBytes);
    expect(await refused(bomb)).toContain('unpacks to more than 1048576 bytes');
  });

  it('refuses a bundle over the compressed-size limit', async () => {
    const big = tgzOf([{ path: 'a', data: 'x'.repeat(100) }]);
    expect(await refused(big, { ...LIMITS, maxBundleBytes: big.length - 1 })).toContain(
      `at most ${big.length - 1}`,
    );
  });

  it('refuses more entries than maxFiles', async () => {
    const entries = Array.from({ length: 6 }, (_, i) => ({ path: `f${i}`, data: 'x' }));
    expect(await refused(tgzOf(entries), { ...LIMITS, maxFiles: 5 })).toContain('more than 5 entries');
  });

  it('refuses a path written twice, and a file under a file', async () => {
    expect(
      await refused(
        tgzOf([
          { path: 'a.sh', data: 'one' },
          { path: 'a.sh', data: 'two' },
        ]),
      ),
    ).toContain('appears twice');
    expect(
      await refused(
        tgzOf([
          { path: 'a', data: 'file' },
          { path: 'a/b', data: 'x' },
        ]),
      ),
    ).toContain('lies under the file');
  });

  it('refuses a truncated gzip stream and a truncated tar', async () => {
    const good = tgzOf([{ path: 'a', data: 'x'.repeat(5000) }]);
    expect(await refused(good.subarray(0, good.length - 20))).toContain('corrupt or truncated');
    const tar = tarOf([{ path: 'a', data: 'x'.repeat(5000) }]);
    expect(await refused(gzipSync(tar.subarray(0, 1200)))).toContain('corrupt or truncated');
  });

  it('refuses what is not a tar.gz at all', async () => {
    expect(await refused(Buffer.from('<html>not found</html>'))).toContain('not a gzip-compressed tar');
    expect(await refused(gzipSync(Buffer.from('just text, no tar headers'.repeat(30))))).toContain(
      'corrupt or truncated',
    );
  });

  it('the defaults are 16 MiB compressed, 64 MiB unpacked, 4096 entries', () => {
    expect(REMOTE_PACK_DEFAULTS).toMatchObject({
      maxBundleBytes: 16 * 1024 * 1024,
      maxUnpackedBytes: 64 * 1024 * 1024,
      maxFiles: 4096,
      timeoutMs: 30_000,
      pollSeconds: 300,
    });
    expect(Object.isFrozen(REMOTE_PACK_DEFAULTS)).toBe(true);
  });
});

describe('entry paths', () => {
  it.each([
    ['./hookpack.json', 'hookpack.json'],
    ['././a/b.sh', 'a/b.sh'],
    ['tests/', 'tests'],
    ['./', ''],
  ])('%s → %s', (raw, path) => {
    expect(entryPath(raw)).toEqual({ ok: true, path });
  });

  it.each(['a//b', 'a/./b', 'x\0y', 'C:/x', '../a', '/a', `${'d/'.repeat(40)}f`])('refuses %j', (raw) => {
    expect(entryPath(raw).ok).toBe(false);
  });
});
