// Parses a hook's raw answer into a HookOutput. Dependency-free: the QuickJS worker folds serial
// chains of JS hooks with exactly the host's parser. The zod `hookOutputSchema` (hook-output.ts)
// documents the same shape for users; test/contract/parse-output.test.ts keeps the two in step.
import { AGENTS, isAgent } from './agents/index.js';
import { isClaudeCodeOutput, mapClaudeCodeOutput } from './claude-code.js';
import { DECISIONS } from './decisions.js';
import { DIALECT_RULES, type Dialect } from './dialects.js';
import { isObject } from './messages.js';
import { type FieldKinds, OUTPUT_FIELD_SPECS } from './output-fields.js';
import { PlainJsonError, toPlainJson } from './plain-json.js';
import type { HookInput, HookOutput } from './types.js';
import { isSeedOutput, mapSeedOutput } from './vocabularies.js';

export type ParsedOutput =
  | { ok: true; output: HookOutput | undefined; unknownFields: string[] }
  | { ok: false; message: string };

type Check = (v: unknown) => string | undefined;

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const str: Check = (v) => (typeof v === 'string' ? undefined : `expected string, received ${describe(v)}`);
const any: Check = () => undefined;

/** One check per value kind of output-fields.ts. */
const CHECKS: Record<keyof FieldKinds, Check> = {
  decision: (v) =>
    (DECISIONS as readonly unknown[]).includes(v)
      ? undefined
      : `expected one of ${DECISIONS.map((d) => `"${d}"`).join('|')}`,
  string: str,
  boolean: (v) => (typeof v === 'boolean' ? undefined : `expected boolean, received ${describe(v)}`),
  stringRecord: (v) =>
    isObject(v) && Object.values(v).every((x) => typeof x === 'string')
      ? undefined
      : `expected an object of strings, received ${describe(v)}`,
  record: (v) => (isObject(v) ? undefined : `expected record, received ${describe(v)}`),
  any,
  reasonObject: (v) => {
    if (!isObject(v)) return `expected object, received ${describe(v)}`;
    return typeof v.reason === 'string'
      ? undefined
      : `reason: expected string, received ${describe(v.reason)}`;
  },
};

const FIELDS: Record<string, Check> = Object.fromEntries(
  OUTPUT_FIELD_SPECS.map((f) => [f.name, CHECKS[f.kind]]),
);

/** What an answer is read against: the hook's dialect, and the tool input it was given. */
export interface AnswerContext {
  /** Default `hookwarden`. */
  readonly dialect?: Dialect | undefined;
  /** The tool input the hook saw (FreeCode's `modifiedInput` patches it). */
  readonly toolInput?: unknown;
  /**
   * A hook of a coding agent's file: the agent's event it was registered under. Its answer is read
   * in that agent's vocabulary first (Cursor's `permission`, Gemini's `hookSpecificOutput.tool_input`).
   */
  readonly agentEvent?: string | undefined;
  /** The input the hook was given (an agent's rewrite may be a patch over it). */
  readonly input?: HookInput | undefined;
}

/**
 * Validates a hook's raw answer for `event` (canonical name). Accepts hookwarden's shape, Claude
 * Code's and the seeds' (vocabularies.ts); `undefined`/`null` mean "proceed". The output is made of
 * null-prototype objects, without `__proto__`/`constructor`/`prototype` keys at any depth.
 */
export function parseHookOutput(raw: unknown, event: string, context: AnswerContext = {}): ParsedOutput {
  if (raw === undefined || raw === null) return { ok: true, output: undefined, unknownFields: [] };
  let plain: unknown;
  try {
    plain = toPlainJson(raw);
  } catch (err) {
    if (err instanceof PlainJsonError || err instanceof RangeError)
      return { ok: false, message: err.message };
    throw err;
  }
  if (!isObject(plain))
    return {
      ok: false,
      message: `expected a JSON object, got ${describe(plain) === 'array' ? 'an array' : describe(plain)}`,
    };
  let obj = plain;
  const unknownFields: string[] = [];
  let invalid: string | undefined;
  if (context.agentEvent !== undefined && context.dialect !== undefined && isAgent(context.dialect)) {
    const read = AGENTS[context.dialect].readAnswer(context.agentEvent, obj, context.input);
    obj = read.mapped;
    unknownFields.push(...read.ignored);
    invalid = read.invalid;
  }
  if (isSeedOutput(obj)) {
    const seed = mapSeedOutput(obj, context.toolInput);
    if (!seed.ok) return seed;
    obj = seed.mapped;
    unknownFields.push(...seed.ignored);
  }
  if (isClaudeCodeOutput(obj)) {
    const { mapped, ignored } = mapClaudeCodeOutput(obj, event);
    obj = mapped;
    unknownFields.push(...ignored);
  }
  const output: HookOutput = Object.create(null);
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (!Object.hasOwn(FIELDS, key)) {
      unknownFields.push(key);
      continue;
    }
    if (value === undefined) continue;
    const problem = FIELDS[key]!(value);
    if (problem !== undefined) {
      const kept = salvaged(plain, obj, `${key}: ${problem}`);
      // An answer the agent refuses counts only for its deny (as below).
      const refusedToo = invalid !== undefined && kept?.ok === true && kept.output?.decision !== 'deny';
      return kept === undefined || refusedToo ? { ok: false, message: `${key}: ${problem}` } : kept;
    }
    (output as Record<string, unknown>)[key] = value;
  }
  // hookwarden's own BeforeCompact only injects what to preserve; Claude Code and FreeCode hooks may
  // stop the compaction (the history is left intact).
  if (
    event === 'BeforeCompact' &&
    output.decision === 'deny' &&
    !DIALECT_RULES[context.dialect ?? 'hookwarden'].compactVeto
  ) {
    delete output.decision;
    delete output.reason;
    unknownFields.push('decision');
  }
  if (event === 'PreSkillShellCommand') refuseUnrunnable(output);
  // An answer the agent itself would reject is a failed hook there (Codex then runs the tool): a
  // failure here too, whose onError applies, unless it denies (a deny always counts).
  if (invalid !== undefined && output.decision !== 'deny') return { ok: false, message: invalid };
  return { ok: true, output, unknownFields };
}

/** Whether an answer says deny or ask in any vocabulary hookwarden reads (before or after mapping). */
function saysStop(o: Record<string, unknown>): 'deny' | 'ask' | undefined {
  const h = isObject(o.hookSpecificOutput) ? o.hookSpecificOutput : {};
  const behavior = isObject(h.decision) ? h.decision.behavior : undefined;
  if (
    o.continue === false ||
    o.decision === 'deny' ||
    o.decision === 'block' ||
    h.permissionDecision === 'deny'
  )
    return 'deny';
  if (behavior === 'deny' || o.permissionDecision === 'deny' || o.permission === 'deny') return 'deny';
  if (o.decision === 'ask' || h.permissionDecision === 'ask' || h.permissionDecision === 'defer')
    return 'ask';
  return undefined;
}

/**
 * An answer that is malformed elsewhere but says deny or ask still says it (trust invariant 7): an
 * agent that reads it leniently (Claude Code strips a field another event's output would hold)
 * blocks, so hookwarden never passes what the answer refused. Undefined: it says neither.
 */
function salvaged(
  raw: Record<string, unknown>,
  mapped: Record<string, unknown>,
  problem: string,
): ParsedOutput | undefined {
  const stop = saysStop(mapped) ?? saysStop(raw);
  if (stop === undefined) return undefined;
  const output: HookOutput = Object.create(null);
  output.decision = stop;
  const said = [mapped.reason, raw.reason, raw.stopReason].find((r) => typeof r === 'string' && r !== '');
  output.reason =
    (said as string | undefined) ?? `the hook's answer says ${stop}, but is malformed (${problem})`;
  return { ok: true, output, unknownFields: [problem] };
}

/**
 * PreSkillShellCommand: Claude Code keeps the command from running on a deny, an ask or a defer (a
 * skill cannot wait for the user) and on any rewrite (it never applies one): all of them are a deny.
 */
function refuseUnrunnable(output: HookOutput): void {
  const why =
    output.mutatedToolInput !== undefined
      ? "the hook changed the command, which a skill's shell command cannot take"
      : output.decision === 'ask' || output.decision === 'defer'
        ? "the hook asked for approval, which a skill's shell command cannot wait for"
        : undefined;
  if (why === undefined) return;
  output.reason = output.reason === undefined ? why : `${why}: ${output.reason}`;
  output.decision = 'deny';
  delete output.mutatedToolInput;
}

/** What is wrong with `value` as the output field `name` (undefined: fine, or not an output field). */
export function outputFieldProblem(name: string, value: unknown): string | undefined {
  return Object.hasOwn(FIELDS, name) ? FIELDS[name]!(value) : undefined;
}
