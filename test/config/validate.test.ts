// What `validate` reports beyond load problems: programs that would not start, a config that loads
// no hook at all, and every hook counted (tenants' too).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/index.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';

describe('validate', () => {
  it('reports a command program that does not exist from where it will run', async () => {
    const dir = tempDir();
    writeFile(join(dir, 'hooks/ok.sh'), '#!/bin/sh\n', 0o755);
    const cfg = writeConfig(dir, 'hooks.json', {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              { name: 'ok', command: './hooks/ok.sh' },
              { name: 'missing', command: './hooks/nope.sh --flag' },
              { name: 'argv', argv: ['./hooks/gone.py'] },
              { name: 'off-path', command: 'not-a-real-tool-xyz' },
              { name: 'system', argv: ['/bin/true'] },
            ],
          },
        ],
      },
    });
    const r = await validateConfig({ config: cfg, root: tempDir() });
    expect(r.diagnostics.map((d) => `${d.severity} ${d.path}: ${d.message}`)).toEqual([
      expect.stringMatching(
        /^error hooks\.BeforeTool\[0\]\.hooks\[1\]: the command's program .*\/hooks\/nope\.sh does not exist; the hook would fail with spawn_failed$/,
      ),
      expect.stringMatching(
        /^error hooks\.BeforeTool\[0\]\.hooks\[2\]: the command's program .*\/hooks\/gone\.py does not exist/,
      ),
      expect.stringMatching(
        /^warning hooks\.BeforeTool\[0\]\.hooks\[3\]: "not-a-real-tool-xyz" is not on a command hook's PATH/,
      ),
    ]);
    expect(r.errorCount).toBe(2);
  });

  it('checks a Claude Code file against the sandbox root, where Claude Code runs its hooks', async () => {
    const dir = tempDir();
    const root = tempDir();
    writeFile(join(root, 'bin/setup'), '#!/bin/sh\n', 0o755);
    const cfg = writeConfig(dir, 'settings.json', {
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'bin/setup' }] }] },
    });
    expect((await validateConfig({ config: cfg, root })).errorCount).toBe(0);
    expect((await validateConfig({ config: cfg, root: dir })).errorCount).toBe(1);
  });

  it('fails a config that loads no hook, and counts tenant hooks', async () => {
    const dir = tempDir();
    const empty = writeConfig(dir, 'empty.json', { hook: { BeforeTool: [] } });
    const r = await validateConfig({ config: empty });
    expect([r.hookCount, r.errorCount]).toEqual([0, 1]);
    expect(r.diagnostics.at(-1)!.message).toMatch(/^no hook loaded/);
    const tenants = writeConfig(dir, 'tenants.json', {
      tenants: { acme: { hooks: { SessionStart: [{ hooks: [{ command: 'true' }] }] } } },
    });
    expect(await validateConfig({ config: tenants })).toMatchObject({ hookCount: 1, errorCount: 0 });
  });

  it('validates a policy file alone', async () => {
    const dir = tempDir();
    const policy = writeConfig(dir, 'policy.json', {
      hooks: { BeforeTool: [{ hooks: [{ name: 'g', command: 'true' }] }] },
    });
    expect(await validateConfig({ policy })).toMatchObject({
      hookCount: 1,
      errorCount: 0,
      policyFailures: [],
    });
  });
});
