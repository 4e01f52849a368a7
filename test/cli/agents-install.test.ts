// `hookwarden <agent> install` on a realistic hooks file of each agent: the plan it prints, what
// stays with the agent (and why), --write (the copy, the .bak, the file rewritten), the written
// adapter hook actually running the moved guard in the agent's protocol, and the refusals (a
// symbolic link, a file that already routes through hookwarden, a config.toml).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentName } from '../../src/contract/agents/protocol.js';
import { type Obj, recorded } from '../helpers/agents.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';

/** A guard script that denies `rm -rf` in the agent's own words (it reads the agent's own input). */
const GUARDS: Record<AgentName, string> = {
  codex: `#!/bin/sh\ngrep -q 'rm -rf' && { echo 'codex guard: no rm -rf' >&2; exit 2; }; exit 0\n`,
  gemini: `#!/bin/sh\ngrep -q 'rm -rf' && { echo '{"decision":"deny","reason":"gemini guard: no rm -rf"}'; exit 0; }; exit 0\n`,
  cursor: `#!/bin/sh\nif grep -q 'rm -rf'; then echo '{"permission":"deny","user_message":"cursor guard: no rm -rf"}'; else echo '{"permission":"allow"}'; fi\n`,
  copilot: `#!/bin/sh\ngrep -q 'rm -rf' && echo '{"permissionDecision":"deny","permissionDecisionReason":"copilot guard: no rm -rf"}'; exit 0\n`,
};

interface Setup {
  /** The hooks file, relative to the project. */
  readonly file: string;
  readonly config: (project: string) => Obj;
  /** Events routed, and the notes on what stays. */
  readonly routed: readonly string[];
  readonly left: readonly RegExp[];
  /** The event to run the installed adapter with, and an input for `command`. */
  readonly event: string;
  readonly input: (command: string) => Obj;
  readonly denied: (r: { status: number | null; stdout: string; stderr: string }) => boolean;
}

const SETUPS: Record<AgentName, Setup> = {
  codex: {
    file: '.codex/hooks.json',
    config: (p) => ({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: `${p}/.codex/guard.sh`, timeout: 30, statusMessage: 'checking' },
            ],
          },
        ],
        PostToolUse: [
          { matcher: 'apply_patch', hooks: [{ type: 'command', command: 'true', commandWindows: 'rem' }] },
        ],
        SessionStart: [{ hooks: [{ type: 'command', command: 'echo "repo notes"' }] }],
        Stop: [{ hooks: [{ type: 'prompt', prompt: 'done?' }] }],
        Interrupt: [{ hooks: [{ type: 'command', command: 'true' }] }],
      },
    }),
    routed: ['PreToolUse', 'PostToolUse', 'SessionStart'],
    left: [
      /Stop\[0\]: left with Codex: "type": "prompt" hooks are refused by Codex itself/,
      /Interrupt: left with Codex: hookwarden has no Interrupt event/,
    ],
    event: 'PreToolUse',
    input: (command) => ({ ...recorded('codex').PreToolUse, tool_input: { command } }),
    denied: (r) => r.status === 2 && r.stderr.includes('codex guard: no rm -rf'),
  },
  gemini: {
    file: '.gemini/settings.json',
    config: (p) => ({
      general: { vimMode: true },
      ui: { theme: 'GitHub' },
      hooksConfig: { enabled: true },
      hooks: {
        BeforeTool: [
          {
            matcher: 'run_shell_command',
            sequential: true,
            hooks: [{ type: 'command', name: 'guard', command: `${p}/.gemini/guard.sh`, timeout: 5000 }],
          },
        ],
        AfterTool: [
          {
            matcher: 'read_file|write_file',
            hooks: [{ type: 'command', command: 'true', description: 'audit' }],
          },
        ],
        BeforeToolSelection: [{ hooks: [{ type: 'command', command: 'echo "{}"' }] }],
        BeforeModel: [{ hooks: [{ type: 'command', command: 'true' }] }],
        SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'true' }] }],
      },
    }),
    routed: ['BeforeTool', 'AfterTool', 'SessionStart'],
    left: [
      /BeforeToolSelection: left with Gemini CLI: its hooks answer with a tool configuration/,
      /BeforeModel: left with Gemini CLI: its hooks answer with model requests/,
    ],
    event: 'BeforeTool',
    input: (command) => ({ ...recorded('gemini').BeforeTool, tool_input: { command } }),
    denied: (r) =>
      r.status === 2 && JSON.parse(r.stdout).decision === 'deny' && r.stdout.includes('gemini guard'),
  },
  cursor: {
    file: '.cursor/hooks.json',
    config: (p) => ({
      version: 1,
      hooks: {
        beforeShellExecution: [{ command: `${p}/.cursor/guard.sh`, timeout: 10, failClosed: true }],
        afterFileEdit: [{ command: 'true', matcher: 'Write' }],
        subagentStart: [{ command: `echo '{"permission":"allow"}'` }],
        beforeSubmitPrompt: [{ type: 'prompt', prompt: 'is this safe?' }],
      },
    }),
    routed: ['beforeShellExecution', 'afterFileEdit'],
    left: [
      /subagentStart: left with Cursor: its hooks may deny a subagent's start/,
      /beforeSubmitPrompt\[0\]: left with Cursor: "type": "prompt" hooks are run by Cursor itself/,
    ],
    event: 'beforeShellExecution',
    input: (command) => ({ ...recorded('cursor').beforeShellExecution, command }),
    denied: (r) =>
      r.status === 0 && JSON.parse(r.stdout).permission === 'deny' && r.stdout.includes('cursor guard'),
  },
  copilot: {
    file: '.github/hooks/security.json',
    config: () => ({
      version: 1,
      hooks: {
        preToolUse: [
          {
            type: 'command',
            bash: './guard.sh',
            powershell: './guard.ps1',
            cwd: '.github/hooks',
            timeoutSec: 15,
            comment: 'security',
          },
        ],
        sessionStart: [{ type: 'prompt', prompt: '/review' }],
        userPromptTransformed: [{ type: 'command', bash: 'true' }],
      },
    }),
    routed: ['preToolUse'],
    left: [
      /sessionStart\[0\]: left with Copilot CLI: "type": "prompt" hooks are run by Copilot CLI itself/,
      /userPromptTransformed: left with Copilot CLI: its hooks rewrite the model-facing prompt/,
    ],
    event: 'preToolUse',
    input: (command) => ({
      ...recorded('copilot').preToolUse,
      cwd: '.',
      toolArgs: JSON.stringify({ command }),
    }),
    denied: (r) =>
      r.status === 0 &&
      JSON.parse(r.stdout).permissionDecision === 'deny' &&
      r.stdout.includes('copilot guard'),
  },
};

/** The command lines of the adapter hooks the installed file holds for `event`. */
function adapterCommands(agent: AgentName, file: Obj, event: string): string[] {
  const entries = ((file.hooks as Obj)[event] as Obj[]) ?? [];
  const handlers = entries.flatMap((e) => (Array.isArray(e.hooks) ? (e.hooks as Obj[]) : [e]));
  return handlers
    .map((h) => (agent === 'copilot' ? h.bash : h.command))
    .filter((c): c is string => typeof c === 'string' && c.includes('hookwarden'));
}

type Agent = 'codex' | 'gemini' | 'cursor' | 'copilot';

/** A project holding the agent's hooks file and the guard script it names. */
function project(agent: Agent): { dir: string; path: string } {
  const s = SETUPS[agent];
  const dir = tempDir();
  const guardDir = agent === 'copilot' ? '.github/hooks' : s.file.split('/')[0]!;
  writeFile(join(dir, guardDir, 'guard.sh'), GUARDS[agent], 0o755);
  return { dir, path: writeConfig(dir, s.file, s.config(dir)) };
}

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
