// The invariant-7 property for one agent (docs/development.md "Properties"): a case is a call as the
// agent sends it, what each hook of the agent's own file answers, and a policy guard written once in
// the vocabulary. The agent's hooks file sits in its own folder and runs through the adapter that
// speaks its protocol, in this process (the adapter's own steps: flags, reading the input, the quick
// scan, a real dispatch with real command hooks, the answer). The agent's oracle (written from its
// code) decides the case twice: from the hooks' own answers, and from the adapter's answer read as
// one hook's. The adapter must never proceed where the agent blocks or asks, and where it is
// stricter, the reason must be one docs/agents.md lists.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, it } from 'vitest';
import { failureAnswer, toCliAnswer } from '../../../src/cli/adapter/answer.js';
import { parseFlags } from '../../../src/cli/adapter/run-adapter.js';
import { nothingCanRun } from '../../../src/cli/claude-code/quick-scan.js';
import { cliExecutorOptions } from '../../../src/cli/one-dispatch.js';
import type { DispatchResult } from '../../../src/contract/result.js';
import { createExecutor, type Executor } from '../../../src/index.js';
import { tempDir, writeConfig, writeFile } from '../../helpers/fixture.js';
import { checkProperty, propertyRun } from '../tier.js';
import type { AgentSpec } from './agent-specs.js';
import { type Behavior, behavior, SILENT } from './answers.js';
import { type Agent, agentCall, canonicalName, type TrueCall, trueCall } from './calls.js';
import { combine, type HookRun, rank, type Verdict } from './oracle.js';

type Obj = Record<string, unknown>;
const POLICIES = ['none', 'mcp', 'bash', 'secret'] as const;
type Policy = (typeof POLICIES)[number];

interface EdgeCase {
  readonly call: TrueCall;
  readonly behaviors: readonly Behavior[];
  readonly policy: Policy;
  /** The input names an event the agent did not fire (it must fail closed). */
  readonly corrupt: boolean;
  /** An input field nobody knows. */
  readonly extra: boolean;
}

/** The cases of one agent: up to five hooks answering, most of them silently. */
function edgeCases(agent: Agent): fc.Arbitrary<EdgeCase> {
  const answer = behavior(agent, agent === 'gemini' ? 'BeforeTool' : 'PreToolUse');
  return fc.record({
    call: trueCall,
    behaviors: fc.array(
      fc.oneof({ weight: 2, arbitrary: fc.constant(SILENT) }, { weight: 3, arbitrary: answer }),
      {
        minLength: 5,
        maxLength: 5,
      },
    ),
    policy: fc.constantFrom(...POLICIES),
    // One case in twenty (shrinking to a sound input).
    corrupt: fc.nat(19).map((n) => n === 19),
    extra: fc.boolean(),
  });
}

// A generous deadline that only catches a hang: a busy machine must not make the guard fail closed.
const JS = (code: string) => ({ type: 'js', timeoutMs: 30_000, code: `export default (i) => ${code}` });
const POLICY_FILES: Record<Exclude<Policy, 'none'>, Obj> = {
  mcp: {
    hooks: {
      BeforeTool: [
        { matcher: 'mcp__github__.*', hooks: [JS("({ decision: 'deny', reason: 'policy: mcp' })")] },
      ],
    },
  },
  bash: {
    hooks: {
      BeforeTool: [
        {
          matcher: 'Bash',
          hooks: [
            JS(
              "/rm -rf/.test(String(i.toolInput?.command ?? '')) ? { decision: 'deny', reason: 'policy: rm' } : undefined",
            ),
          ],
        },
      ],
    },
  },
  secret: {
    hooks: {
      BeforeTool: [
        {
          matcher: 'Read|Write|Edit',
          hooks: [
            JS(
              "/secret/.test(String(i.toolInput?.file_path ?? '')) ? { decision: 'deny', reason: 'policy: secret' } : undefined",
            ),
          ],
        },
      ],
    },
  },
};

/** Whether the policy guard, written once, must stop the true call (the ground truth). */
function policyStops(agent: Agent, policy: Policy, c: TrueCall): boolean {
  if (policy === 'mcp') return c.kind === 'mcp' && /mcp__github__/.test(canonicalName(c));
  if (policy === 'bash') return c.kind === 'shell' && (c.command ?? '').includes('rm -rf');
  // Codex's apply_patch input is the patch text: no file_path to guard (docs/agents.md, Codex).
  if (policy === 'secret')
    return (
      (c.kind === 'read' || c.kind === 'write') &&
      !(agent === 'codex' && c.kind === 'write') &&
      (c.path ?? '').includes('secret')
    );
  return false;
}

const runOf = (b: Behavior): HookRun => ({
  exitCode: b.exit,
  stdout: b.stdout,
  stderr: b.stderr,
});

class EdgeRig {
  readonly #spec: AgentSpec;
  readonly #dir = tempDir('hw-prop-edge-');
  readonly #executors = new Map<Policy, Executor>();
  readonly #file: string;

  constructor(spec: AgentSpec) {
    this.#spec = spec;
    this.#file = writeConfig(
      this.#dir,
      spec.place,
      spec.file((event, i) => this.#command(event, i)),
    );
    for (const [p, body] of Object.entries(POLICY_FILES)) writeConfig(this.#dir, `policy-${p}.json`, body);
  }

  #base(event: string, i: number): string {
    return join(this.#dir, 'b', `${event}-${i}`);
  }

  #command(event: string, i: number): string {
    const b = this.#base(event, i);
    return `cat >/dev/null; : > '${b}.ran'; cat '${b}.out'; cat '${b}.err' >&2; exit "$(cat '${b}.code')"`;
  }

  #args(policy: Policy, event: string): string[] {
    return [
      '--config',
      this.#file,
      ...(policy === 'none' ? [] : ['--policy', join(this.#dir, `policy-${policy}.json`)]),
      '--root',
      this.#dir,
      ...this.#spec.flags(event),
    ];
  }

  async #executor(policy: Policy): Promise<Executor> {
    let e = this.#executors.get(policy);
    if (e === undefined) {
      const flags = parseFlags(this.#spec.adapter, this.#args(policy, ''), {}, this.#dir);
      if (flags instanceof Error) throw flags;
      e = await createExecutor({ ...cliExecutorOptions(flags), onWarning: () => {} });
      this.#executors.set(policy, e);
    }
    return e;
  }

  async close(): Promise<void> {
    for (const e of this.#executors.values()) await e.close();
    this.#executors.clear();
  }

  /** The adapter's steps in this process; its answer, and the dispatch's result when one ran. */
  async #adapter(policy: Policy, event: string, stdin: string) {
    const spec = this.#spec.adapter;
    const flags = parseFlags(spec, this.#args(policy, event), {}, this.#dir);
    if (flags instanceof Error) throw flags;
    let read: ReturnType<typeof spec.read>;
    try {
      read = spec.read(stdin, flags);
    } catch (err) {
      return { answer: failureAnswer(spec, (err as { event?: string }).event ?? flags.event, err) };
    }
    const probe =
      typeof read.input.toolName === 'string'
        ? { ...read.input, tool_name: read.input.toolName }
        : read.input;
    if (nothingCanRun(flags, read.dispatchEvent, probe)) {
      const none: DispatchResult = { event: read.dispatchEvent, decision: 'passthrough', hooks: [] };
      return { answer: toCliAnswer(spec, spec.answer(read, none, flags)) };
    }
    const result = await (await this.#executor(policy)).dispatch(read.dispatchEvent, read.input);
    return { answer: toCliAnswer(spec, spec.answer(read, result, flags)), result };
  }

  /** Runs one case and checks it; throws a readable account of a violation. */
  async check(c: EdgeCase): Promise<void> {
    const spec = this.#spec;
    const call = agentCall(spec.agent, c.call);
    const groups = spec.groups[call.event] ?? [];
    groups.forEach((_, i) => {
      const base = this.#base(call.event, i);
      const b = c.behaviors[i] ?? SILENT;
      writeFile(`${base}.out`, b.stdout);
      writeFile(`${base}.err`, b.stderr);
      writeFile(`${base}.code`, String(b.exit));
      rmSync(`${base}.ran`, { force: true });
    });
    const sent = c.corrupt ? `${call.event}X` : call.event;
    const raw = { ...spec.input(call, sent, this.#dir), ...(c.extra ? { zz_unknown: 1 } : {}) };
    const { answer, result } = await this.#adapter(c.policy, call.event, JSON.stringify(raw));
    const oracle = spec.oracle;
    const verdicts = groups.map((g, i) =>
      oracle.runs(call.event, g.matcher, call)
        ? oracle.read(call.event, runOf(c.behaviors[i] ?? SILENT), g)
        : undefined,
    );
    let expected: Verdict = combine(verdicts.filter((v): v is Verdict => v !== undefined));
    if (policyStops(spec.agent, c.policy, c.call)) expected = { decision: 'block', why: 'policy' };
    if (c.corrupt) expected = { decision: 'block', why: 'unreadable input' };
    const actual = oracle.read(call.event, {
      exitCode: answer.code,
      stdout: answer.stdout,
      stderr: answer.stderr ?? '',
    });
    const account = () =>
      `${spec.oracle.title}: ${JSON.stringify({ case: c, sent: raw, expected, verdicts, answer })}`;
    if (rank(expected.decision) >= 2 && rank(actual.decision) < rank(expected.decision))
      throw new Error(
        `the adapter proceeds where the agent ${expected.decision}s (${expected.why}): ${account()}`,
      );
    // allow and no opinion are one class here: only a block or an ask the agent would not give needs a reason.
    if (rank(actual.decision) >= 2 && rank(actual.decision) > Math.max(1, rank(expected.decision))) {
      const reasons = new Set<string>();
      groups.forEach((g, i) => {
        if (!existsSync(`${this.#base(call.event, i)}.ran`)) return;
        reasons.add(oracle.read(call.event, runOf(c.behaviors[i] ?? SILENT), g).why);
        if (verdicts[i] === undefined) reasons.add('matcher');
      });
      if (result?.hooks.some((h) => h.scope === 'policy' && h.outcome === 'deny') === true)
        reasons.add('unplaced');
      if (
        answer.stdout.includes('name the same argument') ||
        answer.stderr?.includes('name the same argument')
      )
        reasons.add('conflict');
      if (![...reasons].some((r) => spec.stricter.includes(r)))
        throw new Error(
          `the adapter ${actual.decision}s where the agent would not, for no reason docs/agents.md lists (${[...reasons].join(', ') || 'none'}): ${account()}`,
        );
    }
  }
}

/**
 * Registers the property of one agent (its test file calls this): `short` cases in `npm test`,
 * `npm run fuzz`'s number in the fuzz tier.
 */
export function edgeProperty(spec: AgentSpec, short: number): void {
  const rig = new EdgeRig(spec);
  afterAll(() => rig.close());
  const name = `invariant 7 (${spec.oracle.title})`;
  const run = propertyRun(name, short, 80, 'HOOKWARDEN_PROPERTY_AGENT_RUNS');
  it(`${spec.oracle.title}: the adapter never proceeds where the agent blocks or asks`, {
    timeout: run.timeoutMs,
  }, async () => {
    await checkProperty(name, run, edgeCases(spec.agent), (c) => rig.check(c));
  });
}
