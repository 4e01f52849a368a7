// Codex 0.171.0's PreToolUse (openai/codex, codex-rs/hooks, read through the source snapshot the
// search tools hold, the nearest to the 0.171.0 tag): events/pre_tool_use.rs `parse_completed` (exit
// 0: the JSON answer; exit 2: a block only with a reason on stderr; any other code or a kill: a
// failed hook, the tool runs), engine/output_parser.rs `parse_pre_tool_use` and its `unsupported_*`
// rules, schema.rs (`PreToolUseCommandOutputWire`, every struct `deny_unknown_fields`), and
// events/common.rs `matches_matcher` (only [A-Za-z0-9_|]: exact names; else a regex searched).
import { type Call, type HookRun, isObj, type Oracle, tryJson, type Verdict } from './oracle.js';

/** Matcher aliases Codex adds for its own tools (the request's matcher_aliases). */
const ALIASES: Readonly<Record<string, readonly string[]>> = {
  apply_patch: ['Write', 'Edit'],
  spawn_agent: ['Agent'],
};

const str = (v: unknown) => v === undefined || v === null || typeof v === 'string';
const WIRE_EVENTS = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'SessionStart',
  'UserPromptSubmit',
  'Stop',
];

/** PreToolUseCommandOutputWire: every field known and typed, or the answer does not parse. */
function wire(o: Record<string, unknown>): boolean {
  const top = [
    'continue',
    'stopReason',
    'suppressOutput',
    'systemMessage',
    'decision',
    'reason',
    'hookSpecificOutput',
  ];
  if (Object.keys(o).some((k) => !top.includes(k))) return false;
  if (o.continue !== undefined && typeof o.continue !== 'boolean') return false;
  if (o.suppressOutput !== undefined && typeof o.suppressOutput !== 'boolean') return false;
  if (!str(o.stopReason) || !str(o.systemMessage) || !str(o.reason)) return false;
  if (o.decision !== undefined && o.decision !== null && o.decision !== 'approve' && o.decision !== 'block')
    return false;
  const h = o.hookSpecificOutput;
  if (h === undefined || h === null) return true;
  if (!isObj(h)) return false;
  const keys = [
    'hookEventName',
    'permissionDecision',
    'permissionDecisionReason',
    'updatedInput',
    'additionalContext',
  ];
  if (Object.keys(h).some((k) => !keys.includes(k))) return false;
  if (typeof h.hookEventName !== 'string' || !WIRE_EVENTS.includes(h.hookEventName)) return false;
  const pd = h.permissionDecision;
  if (pd !== undefined && pd !== null && pd !== 'allow' && pd !== 'deny' && pd !== 'ask') return false;
  return str(h.permissionDecisionReason) && str(h.additionalContext);
}

const reasonOf = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const given = (v: unknown) => v !== undefined && v !== null;

/** parse_pre_tool_use: a block reason, or why there is none. */
function decide(o: Record<string, unknown>): Verdict {
  if (o.continue === false || given(o.stopReason) || o.suppressOutput === true)
    return { decision: 'none', why: 'unsupported' };
  const h = isObj(o.hookSpecificOutput) ? o.hookSpecificOutput : undefined;
  const specific =
    h !== undefined &&
    (given(h.permissionDecision) || given(h.permissionDecisionReason) || given(h.updatedInput));
  if (specific) {
    const pd = h!.permissionDecision ?? undefined;
    if (given(h!.updatedInput) && pd !== 'allow') return { decision: 'none', why: 'unsupported' };
    if (pd === 'deny')
      return reasonOf(h!.permissionDecisionReason) === undefined
        ? { decision: 'none', why: 'unsupported' }
        : { decision: 'block', why: 'json-deny' };
    // An allow without updatedInput, an ask, a reason without a decision: all refused.
    return { decision: 'none', why: 'unsupported' };
  }
  if (o.decision === 'block')
    return reasonOf(o.reason) === undefined
      ? { decision: 'none', why: 'unsupported' }
      : { decision: 'block', why: 'json-block' };
  if (o.decision === 'approve' || given(o.reason)) return { decision: 'none', why: 'unsupported' };
  return { decision: 'none', why: 'json-no-decision' };
}

export const CODEX: Oracle = {
  title: 'Codex 0.171.0',
  source:
    'codex-rs/hooks: events/pre_tool_use.rs parse_completed, engine/output_parser.rs parse_pre_tool_use, schema.rs, events/common.rs matches_matcher',
  read(_event: string, run: HookRun): Verdict {
    if (run.exitCode === null) return { decision: 'none', why: 'failure' };
    if (run.exitCode === 2)
      return run.stderr.trim() === ''
        ? { decision: 'none', why: 'exit2-no-stderr' }
        : { decision: 'block', why: 'exit-2' };
    if (run.exitCode !== 0) return { decision: 'none', why: 'failure' };
    const text = run.stdout.trim();
    if (text === '') return { decision: 'none', why: 'empty' };
    const json = tryJson(text);
    if (json !== undefined && isObj(json.value) && wire(json.value)) return decide(json.value);
    return { decision: 'none', why: /^[{[]/.test(text) ? 'invalid-json' : 'plain-text' };
  },
  runs(_event: string, matcher: string | undefined, call: Call): boolean {
    if (call.tool === undefined || matcher === undefined || matcher === '' || matcher === '*') return true;
    const inputs = [call.tool, ...(ALIASES[call.tool] ?? [])];
    if (/^[A-Za-z0-9_|]+$/.test(matcher)) return matcher.split('|').some((m) => inputs.includes(m));
    try {
      const re = new RegExp(matcher);
      return inputs.some((n) => re.test(n));
    } catch {
      return false;
    }
  },
};
