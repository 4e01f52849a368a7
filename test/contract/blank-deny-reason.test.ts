// A deny is never answered with a blank reason. Codex (like Claude Code) blocks on exit 2 only with a
// reason on stderr: a hook whose deny carried an empty or whitespace reason (found by invariant 7's
// Codex property, seed 20261207: a hook's `{"reason":"", …"permissionDecision":"deny"}` beside an
// exit-2 hook) was answered exit 2 with a bare newline, which Codex reads as no block. Every agent,
// every blank reason, with and without the deciding hook's name.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENTS } from '../../src/contract/agents/index.js';
import type { AgentName } from '../../src/contract/agents/protocol.js';
import type { DispatchResult } from '../../src/contract/result.js';

type Obj = Record<string, unknown>;
const recorded = (agent: AgentName): Record<string, Obj> =>
  JSON.parse(readFileSync(new URL(`../fixtures/agents/${agent}.json`, import.meta.url), 'utf8'));

/** Each agent's shell gate, as its recorded fixture has it. */
const GATES: Record<AgentName, string> = {
  codex: 'PreToolUse',
  gemini: 'BeforeTool',
  cursor: 'beforeShellExecution',
  copilot: 'preToolUse',
};

const BLANKS = ['', ' ', '\n', '\t \r\n'];

describe('a deny with a blank reason', () => {
  for (const agent of Object.keys(GATES) as AgentName[]) {
    it.each(
      BLANKS.flatMap((reason) => [
        [JSON.stringify(reason), reason, undefined],
        [`${JSON.stringify(reason)} by a named hook`, reason, 'guard'],
      ]),
    )(`${agent}: %s still blocks, with a reason the agent shows`, (_label, reason, decidedBy) => {
      const p = AGENTS[agent];
      const event = GATES[agent];
      const dispatched = p.toDispatch(event, recorded(agent)[event]!).input;
      const result: DispatchResult = {
        event: 'BeforeTool',
        decision: 'deny',
        reason: reason as string,
        hooks: [],
        ...(decidedBy === undefined ? {} : { decidedBy: decidedBy as string }),
      };
      const a = p.toAnswer(event, result, dispatched);
      const text = `${a.stdout}\n${a.stderr ?? ''}`;
      if (a.exitCode === 2) expect((a.stderr ?? '').trim() + a.stdout.trim()).not.toBe('');
      else expect(a.stdout).toMatch(/"deny"/);
      expect(text).toMatch(
        decidedBy === undefined ? /denied|blocked/ : /denied by hook \\"guard\\"|denied by hook "guard"/,
      );
    });
  }
});
