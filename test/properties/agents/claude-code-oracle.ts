// Claude Code 2.1.337 (the CLI shipped in @anthropic-ai/claude-agent-sdk 0.3.337, linux-x64 build;
// its bundle's names are minified, so the functions are named by what they do and the messages they
// print): the command hook's result loop ("hook_non_blocking_error", "blocking"), parseHookOutput
// (`nQ`: "Hook output does not start with {, treating as plain text", "looks like a JSON object but
// is not valid JSON"), the hook output schema (`z1e`: continue, suppressOutput, stopReason,
// decision "approve"|"block", reason, systemMessage, hookSpecificOutput by hookEventName),
// processHookJSONOutput (`NTn`: "Unknown hook decision type", "Hook returned incorrect event name"),
// and the matcher (`p`: `/^[a-zA-Z0-9_|, -]+$/` names, else a RegExp searched in the tool name).
import { type Call, type HookRun, isObj, type Oracle, tryJson, type Verdict } from './oracle.js';

/** Legacy tool names its matchers also accept (2.1.337's `Task: "Agent"` table). */
const LEGACY: Readonly<Record<string, string>> = {
  Task: 'Agent',
  KillShell: 'TaskStop',
  KillBash: 'TaskStop',
  ListPeers: 'ListAgents',
  Brief: 'SendUserMessage',
};
const current = (n: string) => LEGACY[n] ?? n;

/** The hookSpecificOutput members the schema knows, with their typed fields. */
const MEMBERS: Readonly<Record<string, Readonly<Record<string, (v: unknown) => boolean>>>> = {
  PreToolUse: {
    permissionDecision: (v) => v === 'allow' || v === 'deny' || v === 'ask' || v === 'defer',
    permissionDecisionReason: (v) => typeof v === 'string',
    updatedInput: isObj,
    additionalContext: (v) => typeof v === 'string',
  },
  UserPromptSubmit: {
    additionalContext: (v) => typeof v === 'string',
    sessionTitle: (v) => typeof v === 'string',
    suppressOriginalPrompt: (v) => typeof v === 'boolean',
  },
  PostToolUse: { additionalContext: (v) => typeof v === 'string' },
  Stop: { additionalContext: (v) => typeof v === 'string' },
  SubagentStop: { additionalContext: (v) => typeof v === 'string' },
};

const TOP: Readonly<Record<string, (v: unknown) => boolean>> = {
  continue: (v) => typeof v === 'boolean',
  suppressOutput: (v) => typeof v === 'boolean',
  stopReason: (v) => typeof v === 'string',
  decision: (v) => v === 'approve' || v === 'block',
  reason: (v) => typeof v === 'string',
  systemMessage: (v) => typeof v === 'string',
  terminalSequence: (v) => typeof v === 'string',
};

/** The schema: known fields of the right type (others are stripped); hookSpecificOutput a member. */
function valid(o: Record<string, unknown>): boolean {
  for (const [k, ok] of Object.entries(TOP)) if (o[k] !== undefined && !ok(o[k])) return false;
  const h = o.hookSpecificOutput;
  if (h === undefined) return true;
  if (!isObj(h) || typeof h.hookEventName !== 'string' || !Object.hasOwn(MEMBERS, h.hookEventName))
    return false;
  for (const [k, ok] of Object.entries(MEMBERS[h.hookEventName]!))
    if (h[k] !== undefined && !ok(h[k])) return false;
  return true;
}

type Parsed = { kind: 'plain' } | { kind: 'invalid' } | { kind: 'json'; value: Record<string, unknown> };

/** parseHookOutput: text that starts with `{` is JSON or a validation error; anything else plain. */
function parse(stdout: string): Parsed {
  const text = stdout.trim();
  if (!text.startsWith('{')) return { kind: 'plain' };
  const json = tryJson(text);
  if (json === undefined) {
    if (!text.endsWith('}')) return { kind: 'plain' };
    // Several JSON documents, one a line, read as plain text.
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    if (lines.length > 1 && lines.every((l) => tryJson(l.trim()) !== undefined)) return { kind: 'plain' };
    return { kind: 'invalid' };
  }
  return isObj(json.value) && valid(json.value) ? { kind: 'json', value: json.value } : { kind: 'invalid' };
}

/** processHookJSONOutput at `event`: the hook's decision. */
function decide(event: string, o: Record<string, unknown>): Verdict {
  let h = isObj(o.hookSpecificOutput) ? o.hookSpecificOutput : undefined;
  // A block with another event's hookSpecificOutput: the block stands, that output is dropped.
  if (o.decision === 'block' && h !== undefined && h.hookEventName !== event) h = undefined;
  if (h !== undefined && h.hookEventName !== event) return { decision: 'none', why: 'event-mismatch' };
  if (o.continue === false) return { decision: 'block', why: 'continue-false' };
  // A block sets a blocking error that a later permissionDecision does not lift.
  let blocking = o.decision === 'block';
  let decision: Verdict['decision'] = o.decision === 'approve' ? 'allow' : 'none';
  if (event === 'PreToolUse' && h !== undefined) {
    const p = h.permissionDecision;
    if (p === 'allow') decision = 'allow';
    else if (p === 'deny') blocking = true;
    else if (p === 'ask' || p === 'defer') decision = 'ask';
  }
  if (blocking) return { decision: 'block', why: 'json-block' };
  return { decision, why: decision === 'none' ? 'json-no-decision' : `json-${decision}` };
}

export const CLAUDE_CODE: Oracle = {
  title: 'Claude Code 2.1.337',
  source: 'the CLI of @anthropic-ai/claude-agent-sdk 0.3.337: its command-hook result loop, nQ, z1e, NTn',
  read(event: string, run: HookRun): Verdict {
    if (run.exitCode === null) return { decision: 'none', why: 'killed' };
    const p = parse(run.stdout);
    if (p.kind === 'json' && p.value.async === true)
      return run.exitCode === 2 ? { decision: 'block', why: 'exit-2' } : { decision: 'none', why: 'async' };
    // Exit 2 blocks whatever stdout holds; a JSON answer is read at any other code.
    if (run.exitCode === 2) return { decision: 'block', why: 'exit-2' };
    if (p.kind === 'invalid') return { decision: 'none', why: 'invalid-json' };
    if (p.kind === 'json') return decide(event, p.value);
    return { decision: 'none', why: run.exitCode === 0 ? 'plain-text' : 'failure' };
  },
  runs(event: string, matcher: string | undefined, call: Call): boolean {
    if (event !== 'PreToolUse' || call.tool === undefined) return true;
    if (matcher === undefined || matcher === '' || matcher === '*') return true;
    const names = [call.tool, current(call.tool)];
    if (/^[a-zA-Z0-9_|, -]+$/.test(matcher))
      return matcher
        .split(/[|,]/)
        .map((n) => n.trim())
        .some((n) => names.includes(n) || names.includes(current(n)));
    try {
      const re = new RegExp(matcher);
      return names.some((n) => re.test(n));
    } catch {
      return false;
    }
  },
};
