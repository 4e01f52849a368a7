// Hook digests in bench results: what a hook does, the scripts it runs from under its roots by
// content, and nothing of where the files were loaded from.
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeHooks } from '../../src/measure/describe-run.js';
import { hooksOn, tempDir, writeConfig, writeFile } from '../helpers/fixture.js';

const digestOf = async (config: string, root: string, event = 'BeforeTool') =>
  (await describeHooks({ config, root, onWarning: () => {} }, [event]))[0]!.digest;

function project(): { dir: string; config: string } {
  const dir = tempDir('hw-digest-');
  writeFile(join(dir, 'hooks', 'check.sh'), '#!/bin/sh\nexit 0\n', 0o755);
  writeFile(join(dir, 'lib', 'rules.py'), 'RULES = []\n');
  writeFile(join(dir, '.env'), 'TOKEN=one\n');
  const config = writeConfig(
    dir,
    'hooks.json',
    hooksOn('BeforeTool', [
      { name: 'check', command: './hooks/check.sh' },
      { name: 'py', argv: ['python3', './lib/rules.py'] },
      { name: 'env', command: 'cat ./.env > /dev/null' },
    ]),
  );
  return { dir, config };
}

const all = async (config: string, root: string) =>
  Object.fromEntries(
    (await describeHooks({ config, root, onWarning: () => {} }, ['BeforeTool'])).map((h) => [h.id, h.digest]),
  );

describe('hook digests', () => {
  it('are the same for a copy of the project elsewhere', async () => {
    const a = project();
    const b = tempDir('hw-digest-copy-');
    cpSync(a.dir, b, { recursive: true });
    expect(await all(join(b, 'hooks.json'), b)).toEqual(await all(a.config, a.dir));
  });

  it('change when a script the hook runs from under the config folder changes, program or argument', async () => {
    const p = project();
    const before = await all(p.config, p.dir);
    writeFileSync(join(p.dir, 'hooks', 'check.sh'), '#!/bin/sh\n# stricter\nexit 0\n');
    writeFileSync(join(p.dir, 'lib', 'rules.py'), 'RULES = ["no rm"]\n');
    const after = await all(p.config, p.dir);
    expect(after.check).not.toBe(before.check);
    expect(after.py).not.toBe(before.py);
    expect(after.env).toBe(before.env);
  });

  it('never cover a secrets file: its content is no business of a result', async () => {
    const p = project();
    const before = await all(p.config, p.dir);
    writeFileSync(join(p.dir, '.env'), 'TOKEN=two\n');
    expect((await all(p.config, p.dir)).env).toBe(before.env);
  });

  it('cover a Claude Code hook script named through $CLAUDE_PROJECT_DIR, under the sandbox root', async () => {
    const dir = tempDir('hw-digest-cc-');
    const script = writeFile(join(dir, '.claude', 'hooks', 'guard.sh'), '#!/bin/sh\nexit 0\n', 0o755);
    const settings = writeConfig(dir, '.claude/settings.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }],
          },
        ],
      },
    });
    const before = await digestOf(settings, dir);
    writeFileSync(script, '#!/bin/sh\nexit 2\n');
    expect(await digestOf(settings, dir)).not.toBe(before);
  });
});
