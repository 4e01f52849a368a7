// Symbolic links anywhere on the way (issue 39): install and uninstall follow a link only when it is
// the user's own layout (a dotfile link in ~ or ~/.config, or one named with --follow-link), refuse
// any other with the fix, before writing anything, and write every path into the command as its
// real path. Shapes: a linked folder anywhere above the file (`.github -> ../victim`,
// `sub/link -> home`, `a/b/c` with `b` linked), a link inside a dotfile link's target, a linked
// --hooks-file folder; every agent.
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTER_SETUPS, type Adapter, adapterCommands } from '../helpers/agent-setups.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';

const ADAPTERS = [
  'claude-code',
  'codex',
  'gemini',
  'cursor',
  'copilot',
] as const satisfies readonly Adapter[];

/** A folder tree: `victim` (someone else's project or home, with the agent's file) and `repo`. */
function victimOf(a: Adapter) {
  const root = tempDir('hw-links-');
  const victim = join(root, 'victim');
  const file = writeConfig(victim, ADAPTER_SETUPS[a].file, ADAPTER_SETUPS[a].config(victim));
  const repo = join(root, 'repo');
  mkdirSync(repo);
  return {
    root,
    victim,
    file,
    repo,
    before: readFileSync(file, 'utf8'),
    listing: readdirSync(dirname(file)),
  };
}

/** Nothing in the victim's folder changed. */
function untouched(v: ReturnType<typeof victimOf>) {
  expect(readFileSync(v.file, 'utf8')).toBe(v.before);
  expect(readdirSync(dirname(v.file)).sort()).toEqual([...v.listing].sort());
}

describe.each(ADAPTERS)('%s install: a link on the way', (a) => {
  const s = ADAPTER_SETUPS[a];
  const top = s.file.split('/')[0]!; // .claude, .codex, .gemini, .cursor, .github

  it(`${top} linked to another project is refused, with the fix, and nothing is written there`, async () => {
    const v = victimOf(a);
    symlinkSync(join(v.victim, top), join(v.repo, top));
    const through = join(v.repo, s.file);
    for (const verb of ['install', 'uninstall'] as const) {
      const r = await runCli([a, verb, through, '--write']);
      expect(r.code, verb).toBe(1);
      expect(r.stderr).toContain(`${join(v.repo, top)} is a symbolic link (to ${join(v.victim, top)})`);
      expect(r.stderr).toMatch(/Give the real path .*--follow-link/);
    }
    untouched(v);
  });

  it('a linked folder higher up (sub/link -> someone’s home), or in the middle (a/b/c, b linked), too', async () => {
    for (const shape of ['sub/link', 'a/b/c'] as const) {
      const v = victimOf(a);
      const link = shape === 'sub/link' ? join(v.repo, 'sub', 'link') : join(v.repo, 'a', 'b');
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(shape === 'sub/link' ? v.victim : v.root, link);
      const through = shape === 'sub/link' ? join(link, s.file) : join(link, 'victim', s.file);
      const r = await runCli([a, 'install', through, '--write']);
      expect([r.code, r.stderr], shape).toEqual([1, expect.stringContaining(`${link} is a symbolic link`)]);
      untouched(v);
    }
  });

  it('named with --follow-link, the link is followed, and the command names the real copy', async () => {
    const v = victimOf(a);
    const link = join(v.repo, 'mine');
    symlinkSync(v.victim, link);
    const r = await runCli([a, 'install', join(link, s.file), '--write', '--follow-link', link]);
    expect(r.code, r.stderr).toBe(0);
    const written = JSON.parse(readFileSync(v.file, 'utf8'));
    const [command] = adapterCommands(a as 'codex', written, s.event);
    expect(command).toContain(`--config ${realpathSync(v.victim)}/`);
    expect(command).not.toContain(link);
  });
});

describe('a dotfile link of the user’s own', () => {
  it.each(ADAPTERS)(
    '%s: ~/<dir> linked into ~/dotfiles works, and the command names the real paths',
    async (a) => {
      const s = ADAPTER_SETUPS[a];
      const home = tempDir('hw-home-');
      const top = s.file.split('/')[0]!;
      const dotfiles = join(home, 'dotfiles', top.slice(1));
      const real = writeConfig(
        join(home, 'dotfiles'),
        `${top.slice(1)}/${s.file.slice(top.length + 1)}`,
        s.config(home),
      );
      symlinkSync(dotfiles, join(home, top));
      const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
      const r = await runCli([a, 'install', join(home, s.file), '--write'], { env });
      expect(r.code, r.stderr).toBe(0);
      const [command] = adapterCommands(a as 'codex', JSON.parse(readFileSync(real, 'utf8')), s.event);
      expect(command).toContain(`--config ${dirname(realpathSync(real))}/`);
      expect(command).not.toContain(`${home}/${top}/`);
      // Uninstall through the same link: the hooks back in the real file.
      const u = await runCli([a, 'uninstall', join(home, s.file), '--write'], { env });
      expect(u.code, u.stderr).toBe(0);
      expect(JSON.parse(readFileSync(real, 'utf8')).hooks).toEqual(s.config(home).hooks);
    },
  );

  it('a link inside the dotfile link’s target is judged too', async () => {
    const home = tempDir('hw-home-');
    const elsewhere = tempDir('hw-elsewhere-');
    const s = ADAPTER_SETUPS['claude-code'];
    const file = writeConfig(elsewhere, s.file, s.config(elsewhere));
    const before = readFileSync(file, 'utf8');
    mkdirSync(join(home, 'dotfiles'));
    symlinkSync(elsewhere, join(home, 'dotfiles', 'linked-repo')); // not a dotfile link: a folder deeper
    symlinkSync(join(home, 'dotfiles', 'linked-repo', '.claude'), join(home, '.claude'));
    const env = { ...process.env, HOME: home };
    const r = await runCli(['claude-code', 'install', join(home, s.file), '--write'], { env });
    expect([r.code, r.stderr]).toEqual([
      1,
      expect.stringContaining(`${join(home, 'dotfiles', 'linked-repo')} is a symbolic link`),
    ]);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readdirSync(join(elsewhere, '.claude'))).toEqual(['settings.json']);
  });
});

it('--hooks-file in a linked folder is refused; so is a link as the file itself', async () => {
  const v = victimOf('claude-code');
  const file = writeConfig(v.repo, '.claude/settings.json', ADAPTER_SETUPS['claude-code'].config(v.repo));
  symlinkSync(v.victim, join(v.repo, 'out'));
  const r = await runCli([
    'claude-code',
    'install',
    file,
    '--write',
    '--hooks-file',
    join(v.repo, 'out', 'copy.json'),
  ]);
  expect([r.code, r.stderr]).toEqual([
    1,
    expect.stringContaining(`${join(v.repo, 'out')} is a symbolic link`),
  ]);
  expect(existsSync(join(v.victim, 'copy.json'))).toBe(false);
  symlinkSync(v.file, join(v.repo, 'linked.json'));
  const l = await runCli(['claude-code', 'install', join(v.repo, 'linked.json'), '--write']);
  expect([l.code, l.stderr]).toEqual([1, expect.stringContaining('linked.json is a symbolic link')]);
  untouched(v);
});
