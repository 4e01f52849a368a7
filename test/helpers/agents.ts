// The coding agents' adapters as the agents run them, for the tests: the recorded inputs of every
// event (test/fixtures/agents/<agent>.json), the adapter as a subprocess fed one of them, and each
// agent's gate where a shell command is asked about.
import { readFileSync } from 'node:fs';
import type { AgentName } from '../../src/contract/agents/protocol.js';
import { runCli } from './cli.js';

export type Obj = Record<string, unknown>;

export const AGENT_NAMES = ['codex', 'gemini', 'cursor', 'copilot'] as const;

/** The recorded input of each of `agent`'s events. */
export const recorded = (agent: AgentName): Record<string, Obj> =>
  JSON.parse(readFileSync(new URL(`../fixtures/agents/${agent}.json`, import.meta.url), 'utf8'));

/** The adapter, fed `stdin` (an input, or raw text); Copilot's inputs do not name their event: --event does. */
export function adapter(agent: AgentName, event: string, stdin: Obj | string, args: string[]) {
  return runCli([agent, ...(agent === 'copilot' ? ['--event', event] : []), ...args], {
    stdin: typeof stdin === 'string' ? stdin : JSON.stringify(stdin),
    env: { ...process.env, HOOKWARDEN_SOCKET: '' },
  });
}

/** The gate of each agent where a shell command is asked about, and an input that runs `command`. */
export const SHELL: Record<AgentName, { event: string; input: (command: string) => Obj }> = {
  codex: {
    event: 'PreToolUse',
    input: (command) => ({ ...recorded('codex').PreToolUse, tool_input: { command } }),
  },
  gemini: {
    event: 'BeforeTool',
    input: (command) => ({ ...recorded('gemini').BeforeTool, tool_input: { command } }),
  },
  cursor: {
    event: 'beforeShellExecution',
    input: (command) => ({ ...recorded('cursor').beforeShellExecution, command }),
  },
  copilot: {
    event: 'preToolUse',
    input: (command) => ({ ...recorded('copilot').preToolUse, toolArgs: JSON.stringify({ command }) }),
  },
};

/** Whether an answer of `agent`'s adapter blocks (exit 2 for Codex and Gemini, a JSON deny for the others). */
export function blocks(agent: AgentName, r: { code: number | null; stdout: string }): boolean {
  if (agent === 'codex' || agent === 'gemini') return r.code === 2;
  if (r.code !== 0) return false;
  try {
    const out = JSON.parse(r.stdout) as Obj;
    return (
      out.permission === 'deny' ||
      out.permissionDecision === 'deny' ||
      out.behavior === 'deny' ||
      out.decision === 'block' ||
      out.continue === false
    );
  } catch {
    return false;
  }
}
