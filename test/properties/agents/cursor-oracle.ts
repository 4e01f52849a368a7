// Cursor 3.9.16 (closed source: no shipped client code to read; its hooks reference,
// cursor.com/docs/agent/hooks and cursor.com/docs/reference/hooks, read through the search tool's docs
// and pages corpora): exit 2 denies; exit 0 with a JSON answer decides by `permission` ("ask" enforced
// on beforeShellExecution and beforeMCPExecution only); any other failure lets the action through
// unless the entry says `failClosed: true`, and a failClosed hook that answers nothing on a gate is
// blocked ("returned no output"). Matchers: a regex searched in the tool name (preToolUse,
// beforeMCPExecution) or in the command's text (beforeShellExecution). Where the docs leave a rule
// open (how a matcher is tested), the oracle takes the wider reading, so hookwarden must run at least
// as many hooks.
import { type Call, type HookRun, isObj, type Oracle, tryJson, type Verdict } from './oracle.js';

const ASKS = new Set(['beforeShellExecution', 'beforeMCPExecution']);

export const CURSOR: Oracle = {
  title: 'Cursor 3.9.16',
  source: 'cursor.com/docs/agent/hooks (the hooks reference), cursor.com/docs/reference/third-party-hooks',
  read(event: string, run: HookRun, hook: { readonly failClosed?: boolean | undefined } = {}): Verdict {
    const failed: Verdict =
      hook.failClosed === true
        ? { decision: 'block', why: 'fail-closed' }
        : { decision: 'none', why: 'failure' };
    if (run.exitCode === 2) return { decision: 'block', why: 'exit-2' };
    if (run.exitCode !== 0) return failed;
    const text = run.stdout.trim();
    if (text === '')
      return hook.failClosed === true
        ? { decision: 'block', why: 'no-output' }
        : { decision: 'none', why: 'empty' };
    const json = tryJson(text);
    if (json === undefined || !isObj(json.value)) return failed;
    const p = json.value.permission;
    // An answer its schema refuses (a permission it does not know) is a failure.
    if (p !== undefined && p !== 'allow' && p !== 'deny' && p !== 'ask')
      return hook.failClosed === true ? failed : { decision: 'none', why: 'malformed' };
    // `continue` is beforeSubmitPrompt's field: a gate's answer reads only `permission`.
    const stop = json.value.continue === false;
    if (p === 'deny') return { decision: 'block', why: 'deny' };
    // hookwarden reads a gate's `continue: false` as a block whatever `permission` says (stricter,
    // docs/agents.md): the why says so, so that an ask beside it is not the only reason found.
    if (p === 'ask' && ASKS.has(event)) return { decision: 'ask', why: stop ? 'continue-on-a-gate' : 'ask' };
    if (p === 'ask') return { decision: 'none', why: stop ? 'continue-on-a-gate' : 'ask-not-enforced' };
    if (p === 'allow') return { decision: 'allow', why: stop ? 'continue-on-a-gate' : 'allow' };
    return { decision: 'none', why: stop ? 'continue-on-a-gate' : 'no-permission' };
  },
  runs(event: string, matcher: string | undefined, call: Call): boolean {
    if (matcher === undefined || matcher === '' || matcher === '*') return true;
    const subject = event === 'beforeShellExecution' ? call.command : call.tool;
    if (subject === undefined) return true;
    try {
      return new RegExp(matcher).test(subject);
    } catch {
      return true;
    }
  },
};
