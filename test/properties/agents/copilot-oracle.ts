// Copilot CLI 1.0.102's preToolUse. Its hook engine is native code in the package
// (prebuilds/linux-x64/runtime.node, inside the copilot binary's copilot.tgz): the oracle is written
// from its strings ("Denied by preToolUse hook (hook errored)", "Denied by preToolUse hook: ",
// "matcher cannot be empty", the PascalCase event names) and from GitHub's "GitHub Copilot CLI hooks
// reference" (github/docs, content/copilot/reference/copilot-cli-reference/cli-hooks-reference.md):
// a JSON answer's `permissionDecision` decides (deny blocks, ask asks, allow allows); empty output
// is the default; a hook that errs (a failing exit, or an answer it cannot read) is denied; a
// matcher is a regex anchored as `^(?:pattern)$` on the tool name. Where the reference and the
// strings disagree (the reference says failures are skipped), or neither says (an unknown
// `permissionDecision` value, text that is not JSON: a typed parser refuses both), the oracle takes
// the stricter reading.
import { type Call, type HookRun, isObj, type Oracle, tryJson, type Verdict } from './oracle.js';

export const COPILOT: Oracle = {
  title: 'Copilot CLI 1.0.102',
  source: "runtime.node's hook strings and GitHub's Copilot CLI hooks reference",
  read(_event: string, run: HookRun): Verdict {
    if (run.exitCode !== 0) return { decision: 'block', why: 'errored' };
    const text = run.stdout.trim();
    if (text === '') return { decision: 'none', why: 'empty' };
    const json = tryJson(text);
    if (json === undefined || !isObj(json.value)) return { decision: 'block', why: 'errored' };
    const o = json.value;
    // Its typed answer: a known field of another type is an answer it cannot read.
    const types: Record<string, string> = {
      permissionDecisionReason: 'string',
      reason: 'string',
      additionalContext: 'string',
      suppressOutput: 'boolean',
    };
    if (Object.entries(types).some(([k, t]) => o[k] !== undefined && typeof o[k] !== t))
      return { decision: 'block', why: 'errored' };
    if (o.decision !== undefined && o.decision !== 'block' && o.decision !== 'allow')
      return { decision: 'block', why: 'errored' };
    const p = o.permissionDecision;
    // `decision: "block"` is agentStop's and subagentStop's field: preToolUse reads permissionDecision.
    const block = json.value.decision === 'block';
    if (p === 'deny') return { decision: 'block', why: 'deny' };
    // A value its typed answer cannot hold is an answer it cannot read: the hook errored.
    if (p !== undefined && p !== 'ask' && p !== 'allow') return { decision: 'block', why: 'errored' };
    const decision = p === 'ask' ? 'ask' : p === 'allow' ? 'allow' : 'none';
    return { decision, why: block ? 'decision-block' : (p ?? 'no-decision') };
  },
  runs(_event: string, matcher: string | undefined, call: Call): boolean {
    if (matcher === undefined || call.tool === undefined) return true;
    try {
      return new RegExp(`^(?:${matcher})$`).test(call.tool);
    } catch {
      return false;
    }
  },
};
