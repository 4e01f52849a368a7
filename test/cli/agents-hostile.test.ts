// Hostile and broken input to `hookwarden codex|gemini|cursor|copilot`, as a subprocess: every way
// the input can be unreadable gets the agent's blocking answer on a gate and a non-blocking error
// elsewhere, one line, never a stack trace; and a hook of the agent's own file that outlives its
// timeout (in the agent's own units) is stopped, and blocks where the stricter reading says so.

import { describe, expect, it } from 'vitest';
import { AGENTS as PROTOCOLS } from '../../src/contract/agents/index.js';
import type { AgentName } from '../../src/contract/agents/protocol.js';
import { DEFAULT_EVENTS, EventCatalogue } from '../../src/contract/events.js';
import { AGENT_NAMES, adapter, blocks, type Obj, recorded, SHELL } from '../helpers/agents.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';

/** A policy whose one hook denies every BeforeTool call: what a fail-open answer would let through. */
function denyAll(dir: string): string {
  return writeConfig(dir, 'deny-all.json', {
    hooks: {
      BeforeTool: [
        { hooks: [{ name: 'deny-all', type: 'js', code: 'export default () => ({ decision: "deny" })' }] },
      ],
    },
  });
}

/** One line from hookwarden on stderr, no stack trace. */
function oneLine(stderr: string): void {
  expect(stderr).toMatch(/^hookwarden: /);
  expect(stderr).not.toMatch(/\n\s+at |Error: .*\n.*node:/);
}

/** A non-blocking event of each agent (its recorded input). */
const OBSERVE: Record<AgentName, string> = {
  codex: 'SessionStart',
  gemini: 'SessionStart',
  cursor: 'sessionStart',
  copilot: 'sessionStart',
};

/** An input naming another event than the agent's (Copilot: one that names another than --event). */
const BOGUS_EVENT: Record<AgentName, Obj> = {
  codex: { ...recorded('codex').PreToolUse, hook_event_name: 'BeforeTool' },
  gemini: { ...recorded('gemini').BeforeTool, hook_event_name: 'PreToolUse' },
  cursor: { ...recorded('cursor').beforeShellExecution, hook_event_name: 'beforeShellExec' },
  copilot: { ...recorded('copilot').preToolUse, hook_event_name: 'postToolUse' },
};

/** A field of the wrong type in the gate's input. */
const WRONG_TYPE: Record<AgentName, Obj> = {
  codex: { ...recorded('codex').PreToolUse, tool_input: 'rm -rf /' },
  gemini: { ...recorded('gemini').BeforeTool, tool_name: 7 },
  cursor: { ...recorded('cursor').beforeShellExecution, command: { sh: 'rm -rf /' } },
  copilot: { ...recorded('copilot').preToolUse, toolArgs: 'rm -rf /' },
};

const deep = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

describe.each(AGENT_NAMES)('hookwarden %s: unreadable input fails closed', (agent) => {
  const dir = tempDir();
  const policy = denyAll(dir);
  const gate = SHELL[agent].event;
  const inputs: Record<string, string | Obj> = {
    'not JSON': '{"hook_event_name": nope',
    'a JSON array': '[{"hook_event_name": "PreToolUse"}]',
    'another event': BOGUS_EVENT[agent],
    'a field of the wrong type': WRONG_TYPE[agent],
    'nested 100 levels deep': { ...SHELL[agent].input('ls'), deep: JSON.parse(deep(100)) as unknown },
    'over 8 MiB': { ...SHELL[agent].input('ls'), pad: 'x'.repeat(8 * 1024 * 1024 + 1) },
    empty: '',
  };

  it.each(Object.keys(inputs))('%s: a block on the gate, one line on stderr', async (what) => {
    const r = await adapter(agent, gate, inputs[what]!, ['--policy', policy]);
    expect(blocks(agent, r), `${r.code} ${r.stdout}`).toBe(true);
    oneLine(r.stderr);
  });

  it('on an event that cannot block: a non-blocking error (exit 1), one line', async () => {
    // Readable enough to name its event (else the event is unknown, and that blocks).
    const input = { ...recorded(agent)[OBSERVE[agent]], cwd: 5 };
    const r = await adapter(agent, OBSERVE[agent], input, ['--policy', policy]);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/cwd: expected a string/);
    oneLine(r.stderr);
  });

  it('input that names no event it can be read for: a block, whatever event it was for', async () => {
    if (agent === 'copilot') return; // --event names it
    const r = await adapter(agent, OBSERVE[agent], '{"oops', ['--policy', policy]);
    expect(blocks(agent, r), `${r.code} ${r.stdout}`).toBe(true);
    oneLine(r.stderr);
  });

  it('bad flags: a block on the gate, naming the flag', async () => {
    const r = await adapter(agent, gate, SHELL[agent].input('ls'), ['--policy', policy, '--timeout', 'soon']);
    expect(blocks(agent, r)).toBe(true);
    expect(r.stderr).toMatch(/--timeout: expected seconds/);
    oneLine(r.stderr);
  });

  it('an event the agent has but hookwarden has none for: a non-blocking error saying so', async () => {
    const left = Object.entries(PROTOCOLS[agent].events).filter(
      ([, e]) =>
        e.left !== undefined &&
        !e.canBlock &&
        // Copilot's VS Code-compatible events are left with Copilot by install, but do run here.
        new EventCatalogue(DEFAULT_EVENTS).get(e.dispatch) === undefined &&
        !['SubagentStart', 'BeforeToolSelection'].includes(e.dispatch),
    );
    for (const [event] of left) {
      const input = recorded(agent)[event] ?? { ...recorded(agent)[OBSERVE[agent]], hook_event_name: event };
      const sent = agent === 'copilot' ? { ...input, hook_event_name: undefined } : input;
      const r = await adapter(agent, event, sent, ['--policy', policy]);
      expect([event, r.code, r.stdout]).toEqual([event, 1, '']);
      expect(r.stderr).toMatch(/has no hookwarden event/);
      oneLine(r.stderr);
    }
  });
});

it('Copilot: --event that is not one of its events: every gate form of a deny at once', async () => {
  const r = await adapter('copilot', 'beforeShellExecution', recorded('copilot').preToolUse!, [
    '--policy',
    denyAll(tempDir()),
  ]);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({
    permissionDecision: 'deny',
    behavior: 'deny',
    decision: 'block',
  });
  oneLine(r.stderr);
});

/** The agent's own hooks file with one hook on its shell gate that sleeps past its own timeout. */
function slowFile(agent: AgentName, dir: string, failClosed = false): string {
  const command = `exec sleep 60`;
  const gate = SHELL[agent].event;
  switch (agent) {
    case 'codex':
      return writeConfig(dir, '.codex/hooks.json', {
        hooks: { [gate]: [{ hooks: [{ type: 'command', command, timeout: 1 }] }] },
      });
    case 'gemini': // milliseconds
      return writeConfig(dir, '.gemini/settings.json', {
        hooks: { [gate]: [{ hooks: [{ type: 'command', command, timeout: 500 }] }] },
      });
    case 'cursor':
      return writeConfig(dir, '.cursor/hooks.json', {
        version: 1,
        hooks: { [gate]: [{ command, timeout: 1, ...(failClosed ? { failClosed: true } : {}) }] },
      });
    case 'copilot':
      return writeConfig(dir, '.github/hooks/slow.json', {
        version: 1,
        hooks: { [gate]: [{ type: 'command', bash: command, timeoutSec: 1 }] },
      });
  }
}

describe.each(AGENT_NAMES)("hookwarden %s: a hook of the agent's file that times out", (agent) => {
  const run = (file: string, scope: '--policy' | '--config') =>
    adapter(agent, SHELL[agent].event, SHELL[agent].input('ls'), [scope, file]);

  it('is stopped at its own timeout, in the agent’s units; as a policy hook it blocks', async () => {
    const started = Date.now();
    const r = await run(slowFile(agent, tempDir()), '--policy');
    // A bound that only catches a hang (Gemini's 500 read as seconds, or no timeout at all).
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(blocks(agent, r), `${r.code} ${r.stdout}`).toBe(true);
    expect(`${r.stdout}${r.stderr}`).toMatch(/timeout|timed out/i);
  });

  it("as a user's hook: the agent's own reading, or the stricter one where it fails closed", async () => {
    const r = await run(slowFile(agent, tempDir()), '--config');
    // Copilot denies a preToolUse hook that errs; Codex, Gemini and Cursor (without failClosed) do not.
    expect(blocks(agent, r), `${r.code} ${r.stdout}`).toBe(agent === 'copilot');
    expect(r.stderr).toMatch(/timeout|timed out/i);
    if (agent === 'cursor') {
      const closed = await run(slowFile(agent, tempDir(), true), '--config');
      expect(blocks(agent, closed), closed.stdout).toBe(true);
    }
  });
});

it('Cursor sessionStart env: the session-env rule judges it; each refusal is named, no field dropped', async () => {
  const dir = tempDir();
  // A project's hook: names go by the allow-list (NODE_ENV is inert; a proxy is not).
  const answer = {
    env: { PATH: '/evil', LD_PRELOAD: '/x.so', HTTPS_PROXY: 'http://10.9.9.9:3128', NODE_ENV: 'production' },
    additional_context: 'hi',
  };
  const file = writeConfig(dir, '.cursor/hooks.json', {
    version: 1,
    hooks: { sessionStart: [{ command: `echo '${JSON.stringify(answer)}'` }] },
  });
  const r = await adapter('cursor', 'sessionStart', recorded('cursor').sessionStart!, ['--config', file]);
  expect([r.code, JSON.parse(r.stdout)]).toEqual([
    0,
    { additional_context: 'hi', env: { NODE_ENV: 'production' } },
  ]);
  expect(r.stderr).toMatch(/sessionEnv \(PATH\).*not applied/);
  expect(r.stderr).toMatch(/sessionEnv \(LD_PRELOAD\).*not applied/);
  expect(r.stderr).toMatch(
    /sessionEnv \(HTTPS_PROXY\).*not on the list of variables known to be inert.*not applied/,
  );
  expect(r.stderr).not.toMatch(/dropped/);
});
