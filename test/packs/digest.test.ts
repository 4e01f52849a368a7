import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparePaths, packDigest } from '../../src/packs/digest.js';
import { lockPack } from '../../src/packs/lock-pack.js';
import { walkPack } from '../../src/packs/walk.js';
import { tempDir, writeFile } from '../helpers/fixture.js';
import { writePack } from '../helpers/pack.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('the pack digest', () => {
  it('is sha256:<64 hex> over the sorted "path\\0sha256\\n" lines of every file', async () => {
    const dir = writePack({ files: { 'check.sh': 'echo hi\n', 'lib/a.js': 'export default () => {}\n' } });
    const manifest = readFileSync(join(dir, 'hookpack.json'), 'utf8');
    const lines = [
      ['check.sh', 'echo hi\n'],
      ['hookpack.json', manifest],
      ['lib/a.js', 'export default () => {}\n'],
    ]
      .map(([p, c]) => `${p}\0${sha(c!)}\n`)
      .join('');
    const { digest } = await lockPack(dir);
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(digest).toBe(`sha256:${sha(lines)}`);
  });

  it('depends only on paths and contents, not on creation order or location', async () => {
    const a = tempDir();
    writeFile(join(a, 'z.txt'), 'z');
    writeFile(join(a, 'a/b.txt'), 'b');
    writeFile(join(a, 'hookpack.json'), '{"name":"p","version":"1","hooks":{}}');
    const b = tempDir();
    writeFile(join(b, 'hookpack.json'), '{"name":"p","version":"1","hooks":{}}');
    writeFile(join(b, 'a/b.txt'), 'b');
    writeFile(join(b, 'z.txt'), 'z');
    const [wa, wb] = [await walkPack(a), await walkPack(b)];
    expect(packDigest(wa.files)).toBe(packDigest(wb.files));
    writeFile(join(b, 'z.txt'), 'Z');
    expect(packDigest((await walkPack(b)).files)).not.toBe(packDigest(wa.files));
  });

  it('sorts paths by byte order, not by locale or UTF-16 units', () => {
    const paths = ['é.txt', 'b', 'B', 'a/b', 'a-b', '\u{1F600}', '\uFF5E'];
    expect([...paths].sort(comparePaths)).toEqual(['B', 'a-b', 'a/b', 'b', 'é.txt', '\uFF5E', '\u{1F600}']);
  });

  it('leaves the lock and the signature file out of the content', async () => {
    const dir = writePack({ files: { 'x.txt': 'x' } });
    const first = await lockPack(dir);
    writeFile(join(dir, 'hookpack.sig'), '{"signatures":[]}');
    expect((await lockPack(dir)).digest).toBe(first.digest);
    const lock = JSON.parse(readFileSync(join(dir, 'hookpack.lock.json'), 'utf8'));
    expect(Object.keys(lock)).toEqual(['version', 'digest', 'files']);
    expect(lock.version).toBe(1);
    expect(Object.keys(lock.files)).toEqual(['hookpack.json', 'x.txt']);
    expect(lock.files['x.txt']).toBe(`sha256:${sha('x')}`);
  });
});

describe('walking a pack', () => {
  it('refuses a symlink anywhere in the pack, whether it points inside or outside', async () => {
    const outside = writeFile(join(tempDir(), 'secret.txt'), 'secret');
    const dir = writePack({ files: { 'real.txt': 'r' } });
    symlinkSync(outside, join(dir, 'out.txt'));
    mkdirSync(join(dir, 'sub'));
    symlinkSync(join(dir, 'real.txt'), join(dir, 'sub', 'in.txt'));
    const walk = await walkPack(dir);
    expect(walk.problems).toEqual([
      'out.txt is a symlink; symlinks are refused in a pack',
      'sub/in.txt is a symlink; symlinks are refused in a pack',
    ]);
    expect([...walk.files.keys()]).toEqual(['hookpack.json', 'real.txt']);
    await expect(lockPack(dir)).rejects.toThrow('out.txt is a symlink');
  });

  it('refuses a pack directory that is itself a symlink, and a missing one', async () => {
    const dir = writePack();
    const link = join(tempDir(), 'link');
    symlinkSync(dir, link);
    expect((await walkPack(link)).problems[0]).toMatch(/is a symlink; a pack is plain files/);
    expect((await walkPack(join(dir, 'nope'))).problems[0]).toMatch(/^pack directory not found: /);
  });
});
