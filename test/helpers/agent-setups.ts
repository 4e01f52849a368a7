// Each agent's hooks file as a test project holds it (issue 29's install tests, issue 39's life of
// an install): a realistic file of the agent, the guard script it names (denying `rm -rf` in the
// agent's own words), which events install routes and which stay, and an input for the routed gate.
import { join } from 'node:path';
import type { AgentName } from '../../src/contract/agents/protocol.js';
import { type Obj, recorded } from './agents.js';
import { tempDir, writeConfig, writeFile } from './fixture.js';

export type { Obj };

/** A guard script that denies `rm -rf` in the agent's own words (it reads the agent's own input). */
export const GUARDS: Record<AgentName, string> = {
  codex: `#!/bin/sh\ngrep -q 'rm -rf' && { echo 'codex guard: no rm -rf' >&2; exit 2; }; exit 0\n`,
  gemini: `#!/bin/sh\ngrep -q 'rm -rf' && { echo '{"decision":"deny","reason":"gemini guard: no rm -rf"}'; exit 0; }; exit 0\n`,
  cursor: `#!/bin/sh\nif grep -q 'rm -rf'; then echo '{"permission":"deny","user_message":"cursor guard: no rm -rf"}'; else echo '{"permission":"allow"}'; fi\n`,
  copilot: `#!/bin/sh\ngrep -q 'rm -rf' && echo '{"permissionDecision":"deny","permissionDecisionReason":"copilot guard: no rm -rf"}'; exit 0\n`,
};

export interface Setup {
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

export const SETUPS: Record<AgentName, Setup> = {
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
    // Interrupt is Claude Code's event too (2.1.335): hookwarden runs it, so install routes it.
    routed: ['PreToolUse', 'PostToolUse', 'SessionStart', 'Interrupt'],
    left: [/Stop\[0\]: left with Codex: "type": "prompt" hooks are refused by Codex itself/],
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
export function adapterCommands(agent: AgentName, file: Obj, event: string): string[] {
  const entries = ((file.hooks as Obj)[event] as Obj[]) ?? [];
  const handlers = entries.flatMap((e) => (Array.isArray(e.hooks) ? (e.hooks as Obj[]) : [e]));
  return handlers
    .map((h) => (agent === 'copilot' ? h.bash : h.command))
    .filter((c): c is string => typeof c === 'string' && c.includes('hookwarden'));
}

export type Agent = 'codex' | 'gemini' | 'cursor' | 'copilot';

/** A project holding the agent's hooks file and the guard script it names. */
export function project(agent: Agent): { dir: string; path: string } {
  const s = SETUPS[agent];
  const dir = tempDir();
  const guardDir = agent === 'copilot' ? '.github/hooks' : s.file.split('/')[0]!;
  writeFile(join(dir, guardDir, 'guard.sh'), GUARDS[agent], 0o755);
  return { dir, path: writeConfig(dir, s.file, s.config(dir)) };
}

/** Claude Code's setup, in the same shape (its installer is `claude-code install`). */
const CLAUDE_CODE_SETUP: Setup = {
  file: '.claude/settings.json',
  config: (p) => ({
    model: 'opus',
    permissions: { allow: ['Bash(ls:*)'] },
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: `${p}/.claude/guard.sh`, timeout: 30 }] },
      ],
      Stop: [{ hooks: [{ type: 'prompt', prompt: 'done?' }] }],
    },
  }),
  routed: ['PreToolUse'],
  left: [/Stop\[0\]: left with Claude Code: "type": "prompt" hooks are run by Claude Code itself/],
  event: 'PreToolUse',
  input: (command) => ({
    session_id: 's1',
    transcript_path: '/tmp/t.jsonl',
    cwd: '/tmp',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 't1',
  }),
  denied: (r) => r.status === 2 && r.stderr.includes('claude guard: no rm -rf'),
};

/** Every adapter, Claude Code's included: `<adapter> install` and the rest of an install's life. */
export type Adapter = Agent | 'claude-code';
export const ADAPTER_SETUPS: Record<Adapter, Setup> = { ...SETUPS, 'claude-code': CLAUDE_CODE_SETUP };

/** A project for any adapter (Claude Code's guard denies with exit 2 and the reason on stderr). */
export function adapterProject(adapter: Adapter): { dir: string; path: string } {
  if (adapter !== 'claude-code') return project(adapter);
  const dir = tempDir();
  writeFile(
    join(dir, '.claude', 'guard.sh'),
    `#!/bin/sh\ngrep -q 'rm -rf' && { echo 'claude guard: no rm -rf' >&2; exit 2; }; exit 0\n`,
    0o755,
  );
  return { dir, path: writeConfig(dir, CLAUDE_CODE_SETUP.file, CLAUDE_CODE_SETUP.config(dir)) };
}
