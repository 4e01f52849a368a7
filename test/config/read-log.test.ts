// What a load read (config/read-log.ts): every file, directory and existence the configuration
// depends on is recorded with the digest of what the load saw, and digestNow() — what a client
// computes before it trusts a daemon — agrees with it until any of them changes.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ABSENT,
  digestNow,
  type LoadRead,
  readsMismatch,
  recordFileRead,
  UNREADABLE,
} from '../../src/config/read-log.js';
import { lockPack } from '../../src/packs/index.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';
import { loadConfig } from '../helpers/load-config.js';
import { script, writePack } from '../helpers/pack.js';

const now = (reads: readonly LoadRead[]) => reads.map((r) => digestNow(r.kind, r.path));

async function load(config: string, policy: string[] = []) {
  return loadConfig({
    config: [{ kind: 'file', path: config, scope: 'project' }],
    policy: policy.map((path) => ({ kind: 'file' as const, path, scope: 'policy' as const })),
  });
}

describe('the reads of a load', () => {
  it('records config files, JS sources, every file and directory of a pack, and the plugin manifest probes', async () => {
    const dir = tempDir();
    const pack = writePack({
      hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: './guard.sh' }] }] },
      files: { 'guard.sh': script({ decision: 'allow' }), 'lib/rules.txt': 'x' },
    });
    const { digest } = await lockPack(pack);
    writeFile(join(dir, 'guard.js'), 'export default () => ({ decision: "deny" })');
    const config = writeConfig(dir, 'hooks.json', {
      hooks: { BeforeTool: [{ hooks: [{ type: 'js', source: 'guard.js' }] }] },
      packs: [{ path: pack, digest }],
    });
    const loaded = await load(config);
    const byKind = (kind: string) => loaded.reads.filter((r) => r.kind === kind).map((r) => r.path);
    expect(byKind('file')).toEqual(expect.arrayContaining([config, join(dir, 'guard.js')]));
    expect(byKind('file-nofollow')).toEqual(
      expect.arrayContaining([
        join(pack, 'hookpack.json'),
        join(pack, 'guard.sh'),
        join(pack, 'lib/rules.txt'),
      ]),
    );
    expect(byKind('dir')).toEqual(expect.arrayContaining([pack, join(pack, 'lib')]));
    expect(byKind('exists')).toContain(join(dir, '.claude-plugin', 'plugin.json'));
    // JS sources are watched too (hot reload used to watch config files and packs only).
    expect(loaded.watchTargets).toContainEqual({ dir, name: 'guard.js' });
    expect(readsMismatch(loaded.reads, now(loaded.reads))).toBeUndefined();
  });

  it.each([
    ['an edited config file', (d: string) => writeFileSync(join(d, 'hooks.json'), '{"hooks": {}}')],
    ['an edited JS source', (d: string) => writeFileSync(join(d, 'guard.js'), 'export default () => ({})')],
    ['a file added to a pack', (d: string) => writeFileSync(join(d, 'pack', 'new.txt'), 'x')],
    [
      'a pack file replaced by a symlink to a copy',
      (d: string) => {
        writeFileSync(join(d, 'copy.sh'), script({ decision: 'allow' }));
        rmSync(join(d, 'pack', 'guard.sh'));
        symlinkSync(join(d, 'copy.sh'), join(d, 'pack', 'guard.sh'));
      },
    ],
    [
      'a plugin manifest created above the file',
      (d: string) => {
        mkdirSync(join(d, '.claude-plugin'));
        writeFileSync(join(d, '.claude-plugin', 'plugin.json'), '{}');
      },
    ],
    [
      'a missing JS source that appears',
      (d: string) => writeFileSync(join(d, 'later.js'), 'export default () => ({})'),
    ],
  ])('notices %s', async (_what, change) => {
    const dir = tempDir();
    const pack = writePack(
      {
        hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: './guard.sh' }] }] },
        files: { 'guard.sh': script({ decision: 'allow' }) },
      },
      join(dir, 'pack'),
    );
    const { digest } = await lockPack(pack);
    writeFile(join(dir, 'guard.js'), 'export default () => ({ decision: "deny" })');
    const config = writeConfig(dir, 'hooks.json', {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              { type: 'js', source: 'guard.js' },
              { type: 'js', source: 'later.js' },
            ],
          },
        ],
      },
      packs: [{ path: pack, digest }],
    });
    const loaded = await load(config);
    expect(loaded.reads.find((r) => r.path === join(dir, 'later.js'))?.digest).toBe(ABSENT);
    expect(readsMismatch(loaded.reads, now(loaded.reads))).toBeUndefined();
    change(dir);
    expect(readsMismatch(loaded.reads, now(loaded.reads))).toMatch(/changed since it was loaded/);
  });

  it('records nothing outside a load, and a directory or FIFO read as a file is unreadable, a missing one absent', () => {
    recordFileRead('/nowhere', Buffer.from('x')); // no recording in scope: a no-op
    const dir = tempDir();
    expect(digestNow('file', dir)).toBe(UNREADABLE);
    expect(digestNow('file', join(dir, 'none'))).toBe(ABSENT);
    expect(digestNow('dir', join(dir, 'none'))).toBe(ABSENT);
    symlinkSync(dir, join(dir, 'link'));
    expect(digestNow('dir', join(dir, 'link'))).toBe(UNREADABLE);
    expect(digestNow('file-nofollow', join(dir, 'link'))).toBe(UNREADABLE);
  });

  it('names the file that changed, and refuses a digest list of the wrong length', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, 'hooks.json', { hooks: {} });
    const loaded = await load(config);
    expect(readsMismatch(loaded.reads, [])).toMatch(/expected \d+ digests/);
    writeFileSync(config, '{"hooks": {"BeforeTool": []}}');
    expect(readsMismatch(loaded.reads, now(loaded.reads))).toContain(config);
  });
});
