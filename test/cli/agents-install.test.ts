// `hookwarden <agent> install` on a realistic hooks file of each agent: the plan it prints, what
// stays with the agent (and why), --write (the copy, the .bak, the file rewritten), the written
// adapter hook actually running the moved guard in the agent's protocol, and the refusals (a
// symbolic link, a file that already routes through hookwarden, a config.toml).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Agent, adapterCommands, type Obj, project, SETUPS } from '../helpers/agent-setups.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';

describe.each(['codex', 'gemini', 'cursor', 'copilot'] as const)('hookwarden %s install', (agent) => {
  const s = SETUPS[agent];

  it('prints the plan and writes nothing without --write', async () => {
    const { path } = project(agent);
    const before = readFileSync(path, 'utf8');
    const r = await runCli([agent, 'install', path]);
    expect(r.code).toBe(0);
    const block = JSON.parse(r.stdout) as Obj;
    expect(Object.keys(block.hooks as Obj).sort()).toEqual(Object.keys(s.config('x').hooks as Obj).sort());
    for (const event of s.routed) expect(adapterCommands(agent, block, event), event).toHaveLength(1);
    for (const re of s.left) expect(r.stderr).toMatch(re);
    expect(r.stderr).toMatch(/nothing written/);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('--write: the copy, the .bak, the file rewritten — and the installed hook runs the moved guard', async () => {
    const { dir, path } = project(agent);
    const before = readFileSync(path, 'utf8');
    const r = await runCli([agent, 'install', path, '--write']);
    expect([r.code, r.stderr]).toEqual([0, expect.stringMatching(/wrote /)]);
    expect(readFileSync(`${path}.bak`, 'utf8')).toBe(before);
    const written = JSON.parse(readFileSync(path, 'utf8')) as Obj;
    const copyPath =
      agent === 'copilot'
        ? join(dir, '.github/hooks/security.hookwarden')
        : path.replace(/\.json$/, '.hookwarden.json');
    const copy = JSON.parse(readFileSync(copyPath, 'utf8')) as Obj;
    expect(copy.dialect).toBe(agent);
    expect(Object.keys(copy.hooks as Obj).sort()).toEqual([...s.routed].sort());
    // The agent's other settings stay byte for byte (Gemini's settings.json).
    if (agent === 'gemini')
      expect(written).toMatchObject({
        general: { vimMode: true },
        ui: { theme: 'GitHub' },
        hooksConfig: { enabled: true },
      });
    // What the agent keeps is still there, as it was.
    if (agent === 'cursor')
      expect((written.hooks as Obj).subagentStart).toEqual([{ command: `echo '{"permission":"allow"}'` }]);
    const [command] = adapterCommands(agent, written, s.event);
    expect(command).toBeDefined();
    // Each agent's own spelling of the adapter entry.
    const entry = ((written.hooks as Obj)[s.event] as Obj[])[0]!;
    if (agent === 'gemini') expect(((entry.hooks as Obj[])[0]!.timeout as number) % 1000).toBe(0);
    if (agent === 'cursor') {
      expect(entry.failClosed).toBe(true);
      expect(command).toMatch(/--explicit-allow/);
    }
    if (agent === 'copilot') {
      expect(command).toMatch(/--event preToolUse/);
      expect(entry.timeoutSec).toBeGreaterThan(15);
    }
    // The agent runs the adapter hook as it runs any hook: its input on stdin.
    const run = (cmd: string) =>
      spawnSync('bash', ['-c', command!], {
        input: JSON.stringify(s.input(cmd)),
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, HOOKWARDEN_SOCKET: '' },
      });
    const denied = run('rm -rf /');
    expect(s.denied(denied), `${denied.status} ${denied.stdout} ${denied.stderr}`).toBe(true);
    const allowed = run('ls');
    expect(allowed.status).toBe(0);
    expect(allowed.stdout).not.toMatch(/deny|block/);
    // Installing again: nothing was added since, nothing is written.
    const installed = readFileSync(path, 'utf8');
    const again = await runCli([agent, 'install', path, '--write']);
    expect([again.code, again.stderr]).toEqual([0, expect.stringMatching(/is up to date: nothing to write/)]);
    expect(readFileSync(path, 'utf8')).toBe(installed);
    // The adapter refuses the installed file as its own config (it would run itself).
    const self = spawnSync(
      process.execPath,
      [
        join(process.cwd(), 'bin/hookwarden'),
        agent,
        ...(agent === 'copilot' ? ['--event', 'preToolUse'] : []),
        '--config',
        path,
      ],
      {
        input: JSON.stringify(s.input('ls')),
        encoding: 'utf8',
      },
    );
    expect(`${self.stdout}${self.stderr}`).toMatch(/would run the adapter again/);
  });

  it('refuses to write through a symbolic link, before writing anything', async () => {
    const { path } = project(agent);
    const elsewhere = writeFile(join(tempDir(), 'victim.json'), '{"untouched": true}\n');
    symlinkSync(elsewhere, `${path}.bak`);
    const r = await runCli([agent, 'install', path, '--write']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is a symbolic link/);
    expect(readFileSync(elsewhere, 'utf8')).toBe('{"untouched": true}\n');
    expect(lstatSync(`${path}.bak`).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(s.config(path.split(`/${s.file}`)[0]!));
  });
});

describe('install refusals', () => {
  it("refuses another agent's file, and names what it is", async () => {
    const dir = tempDir();
    const cursor = writeConfig(dir, '.cursor/hooks.json', {
      version: 1,
      hooks: { beforeShellExecution: [{ command: 'true' }] },
    });
    const r = await runCli(['copilot', 'install', cursor]);
    expect([r.code, r.stderr]).toEqual([
      1,
      expect.stringMatching(/its shape is cursor's.*not a Copilot CLI hooks file/),
    ]);
  });

  it('refuses a Codex config.toml: it rewrites JSON only, and says where to move the hooks', async () => {
    const dir = tempDir();
    const toml = writeFile(
      join(dir, '.codex/config.toml'),
      '[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "true"\n',
    );
    const r = await runCli(['codex', 'install', toml]);
    expect([r.code, r.stderr]).toEqual([1, expect.stringMatching(/JSON files only.*hooks\.json/)]);
    // The loader reads its [hooks] as they are.
    const v = await runCli(['validate', toml]);
    expect(v.stdout).toMatch(/1 hook loaded/);
  });

  it('Cursor: names the Claude Code hooks Cursor also runs, and which file wins', async () => {
    const dir = tempDir();
    writeConfig(dir, '.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
    });
    const cursor = writeConfig(dir, '.cursor/hooks.json', {
      version: 1,
      hooks: { beforeShellExecution: [{ command: 'true' }] },
    });
    const r = await runCli(['cursor', 'install', cursor]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /Cursor also runs the Claude Code hooks of .*\.claude\/settings\.json.*a deny from either blocks/,
    );
  });
});

it('the installed files are what the adapter reads: validate loads the copy of every agent', () => {
  const bin = join(process.cwd(), 'bin/hookwarden');
  for (const agent of ['codex', 'gemini', 'cursor', 'copilot'] as const satisfies readonly Agent[]) {
    const { dir, path } = project(agent);
    execFileSync(process.execPath, [bin, agent, 'install', path, '--write'], { stdio: 'pipe' });
    const copy =
      agent === 'copilot'
        ? join(dir, '.github/hooks/security.hookwarden')
        : path.replace(/\.json$/, '.hookwarden.json');
    expect(existsSync(copy)).toBe(true);
    const out = execFileSync(process.execPath, [bin, 'validate', copy], { encoding: 'utf8' });
    expect(out).toMatch(/hooks? loaded/);
  }
});
