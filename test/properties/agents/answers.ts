// What the hooks of the invariant-7 properties answer: exit codes, stdout and stderr
// holding each agent's answer vocabulary (and the others', and unknown fields), text that is not
// JSON, JSON that is not an object, answers encoded twice, two documents, blank output.
import fc from 'fast-check';
import type { Agent } from './calls.js';

export interface Behavior {
  readonly exit: number;
  readonly stdout: string;
  readonly stderr: string;
}

type Obj = Record<string, unknown>;
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });
const text = fc.constantFrom('why', '', ' ', 'no rm here');

/** Drops undefined fields (JSON would). */
const compact = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const claudeAnswer = (event: string) =>
  fc
    .record({
      decision: maybe(fc.constantFrom('approve', 'block', 'deny', 'allow')),
      reason: maybe(text),
      continue: maybe(fc.boolean()),
      stopReason: maybe(text),
      suppressOutput: maybe(fc.boolean()),
      systemMessage: maybe(text),
      hookSpecificOutput: maybe(
        fc
          .record({
            hookEventName: fc.constantFrom(event, event, 'Stop', 'PostToolUse', 'Bogus'),
            permissionDecision: maybe(fc.constantFrom('allow', 'deny', 'ask', 'defer', 'nope')),
            permissionDecisionReason: maybe(fc.oneof(text, fc.constant(5))),
            updatedInput: maybe(fc.constant({ command: 'echo rewritten' })),
            additionalContext: maybe(text),
          })
          .map(compact),
      ),
      extra: maybe(fc.constant(1)),
    })
    .map(compact);

const geminiAnswer = fc
  .record({
    decision: maybe(fc.constantFrom('allow', 'deny', 'block', 'ask', 'approve')),
    reason: maybe(fc.oneof(text, fc.constant(5))),
    continue: maybe(fc.boolean()),
    stopReason: maybe(text),
    systemMessage: maybe(text),
    hookSpecificOutput: maybe(fc.record({ additionalContext: maybe(text) }).map(compact)),
    extra: maybe(fc.constant(1)),
  })
  .map(compact);

const cursorAnswer = fc
  .record({
    permission: maybe(fc.constantFrom('allow', 'deny', 'ask', 'bogus')),
    user_message: maybe(text),
    agent_message: maybe(text),
    continue: maybe(fc.boolean()),
    extra: maybe(fc.constant(1)),
  })
  .map(compact);

const copilotAnswer = fc
  .record({
    permissionDecision: maybe(fc.constantFrom('allow', 'deny', 'ask', 'bogus')),
    permissionDecisionReason: maybe(text),
    decision: maybe(fc.constantFrom('block', 'allow')),
    reason: maybe(text),
    extra: maybe(fc.constant(1)),
  })
  .map(compact);

/** An answer object in `agent`'s vocabulary (now and then another agent's). */
function answerObject(agent: Agent, event: string): fc.Arbitrary<Obj> {
  const own =
    agent === 'claude-code' || agent === 'codex'
      ? claudeAnswer(event)
      : agent === 'gemini'
        ? geminiAnswer
        : agent === 'cursor'
          ? cursorAnswer
          : copilotAnswer;
  return fc.oneof(
    { weight: 6, arbitrary: own },
    { weight: 1, arbitrary: fc.oneof(claudeAnswer(event), geminiAnswer, cursorAnswer, copilotAnswer) },
  );
}

/** Text on stdout or stderr: an answer, encoded once or twice, or other text. */
function stream(agent: Agent, event: string): fc.Arbitrary<string> {
  const obj = answerObject(agent, event);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant('') },
    { weight: 6, arbitrary: obj.map((o) => JSON.stringify(o)) },
    { weight: 1, arbitrary: obj.map((o) => JSON.stringify(JSON.stringify(o))) },
    { weight: 1, arbitrary: obj.map((o) => `${JSON.stringify(o)}\n${JSON.stringify(o)}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('allowed by policy', '{', '[1]', 'null', '"just text"', ' \n ', '{"a":1}x'),
    },
  );
}

/** One hook's behavior: mostly exit 0, and every other way a hook ends. */
export function behavior(agent: Agent, event: string): fc.Arbitrary<Behavior> {
  return fc.record({
    exit: fc.oneof(
      { weight: 8, arbitrary: fc.constant(0) },
      { weight: 3, arbitrary: fc.constant(2) },
      // 137: what a hook whose child was killed exits with (a kill of the hook itself is a
      // failure in every agent and here: the dispatch tests cover it).
      { weight: 2, arbitrary: fc.constantFrom(1, 3, 127, 137) },
    ),
    stdout: stream(agent, event),
    stderr: fc.oneof(
      { weight: 3, arbitrary: fc.constant('') },
      { weight: 2, arbitrary: stream(agent, event) },
    ),
  });
}

/** A hook that says nothing (most groups of most cases). */
export const SILENT: Behavior = { exit: 0, stdout: '', stderr: '' };
