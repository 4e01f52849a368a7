// `claude-code install --write` never writes through a symbolic link at the file's own level: a link
// as the settings file, as a neighbour it would create (the .bak, the copy, its temporary file), or
// as its folder (issue 29's install tests; links further up: install-links.test.ts).
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command,
  ...extra,
});

describe('install --write never writes through a symbolic link', () => {
  const settings = {
    permissions: { allow: ['Bash(*)'] },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('true')] }] },
  };

  /** A repository with .claude/settings.json, and a "home" whose settings a link points at. */
  function layout() {
    const root = tempDir('hw-install-link-');
    const home = join(root, 'home/.claude');
    mkdirSync(home, { recursive: true });
    const homeSettings = writeConfig(home, 'settings.json', { hooks: {} });
    const repo = join(root, 'repo');
    const file = writeConfig(join(repo, '.claude'), 'settings.json', settings);
    return { root, home, homeSettings, repo, file, before: readFileSync(homeSettings, 'utf8') };
  }

  const neighbours = ['settings.json.hookwarden-tmp', 'settings.json.bak', 'settings.hookwarden.json'];

  it.each(neighbours)(
    'a link at .claude/%s is refused, and nothing outside .claude changes',
    async (name) => {
      for (const dangling of [false, true]) {
        const l = layout();
        const target = dangling ? join(l.home, 'new-file.json') : l.homeSettings;
        symlinkSync(target, join(l.repo, '.claude', name));
        const r = await runCli(['claude-code', 'install', l.file, '--write']);
        if (name.endsWith('-tmp')) {
          // Install never uses a predictable temporary name: the link is left alone, the write happens.
          expect(r.code, r.stderr).toBe(0);
        } else {
          expect(r.code).toBe(1);
          expect(r.stderr).toContain(`${join(l.repo, '.claude', name)} is a symbolic link`);
          expect(JSON.parse(readFileSync(l.file, 'utf8'))).toEqual(settings);
        }
        expect(readFileSync(l.homeSettings, 'utf8')).toBe(l.before);
        expect(existsSync(join(l.home, 'new-file.json'))).toBe(false);
        expect(readdirSync(l.home)).toEqual(['settings.json']);
      }
    },
  );

  it('a settings file that is a link, or a .claude folder that is one, is refused', async () => {
    const l = layout();
    // The repository's settings.json points at the user's own.
    writeConfig(l.home, 'settings.json', settings);
    const before = readFileSync(l.homeSettings, 'utf8');
    const linkedFile = join(l.repo, 'linked.json');
    symlinkSync(l.homeSettings, linkedFile);
    const r1 = await runCli(['claude-code', 'install', linkedFile, '--write']);
    expect(r1.code).toBe(1);
    expect(r1.stderr).toContain(`${linkedFile} is a symbolic link`);
    // The repository's .claude is a link to the user's ~/.claude.
    const other = join(l.root, 'repo2');
    mkdirSync(other);
    symlinkSync(l.home, join(other, '.claude'));
    const r2 = await runCli(['claude-code', 'install', join(other, '.claude/settings.json'), '--write']);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain(`${join(other, '.claude')} is a symbolic link`);
    expect(readFileSync(l.homeSettings, 'utf8')).toBe(before);
    expect(readdirSync(l.home)).toEqual(['settings.json']);
  });

  it("writes only regular files it created, all in the settings file's folder", async () => {
    const l = layout();
    const r = await runCli(['claude-code', 'install', l.file, '--write']);
    expect(r.code, r.stderr).toBe(0);
    const dir = join(l.repo, '.claude');
    expect(readdirSync(dir).sort()).toEqual([
      'settings.hookwarden.json',
      'settings.json',
      'settings.json.bak',
    ]);
    for (const name of readdirSync(dir)) expect(lstatSync(join(dir, name)).isFile()).toBe(true);
    expect(readdirSync(l.home)).toEqual(['settings.json']);
  });
});
