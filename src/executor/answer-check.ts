// `validate`'s look at what a hook answers, where its source can be read: a PermissionRequest hook
// that writes PreToolUse's `permissionDecision` (in its inline command, the script it runs, or its
// JS source) approves nothing in Claude Code, which reads only `hookSpecificOutput.decision` there,
// and nothing in hookwarden either (the record warns at run time). Said before it is deployed.
import { closeSync, openSync, readSync } from 'node:fs';
import type { Diagnostic } from '../config/diagnostics.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import { commandFiles } from './command-check.js';

type Problem = Pick<Diagnostic, 'severity' | 'message' | 'skipped'>;

/** Of a script file, what is read (a guard script is small; a binary is not read far). */
const MAX_SOURCE_BYTES = 256 * 1024;

function head(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(MAX_SOURCE_BYTES);
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The texts a hook's answer comes from, with where each is: what validate can read. */
function sources(hook: HookDefinition, root: string): { where: string; text: string }[] {
  if (hook.type === 'js') return [{ where: 'its JS source', text: hook.js.code }];
  if (hook.type !== 'command') return [];
  const out: { where: string; text: string }[] = [];
  const program = hook.command.program;
  if (program.kind === 'shell') out.push({ where: 'its command', text: program.command });
  for (const file of commandFiles(hook, root)) out.push({ where: file, text: head(file) });
  return out;
}

/**
 * A warning for a PermissionRequest hook whose answer names `permissionDecision` and never
 * `behavior` (the key of PermissionRequest's own `decision` object); undefined otherwise.
 */
export function answerProblem(hook: HookDefinition, root: string): Problem | undefined {
  if (hook.event !== 'ApprovalRequest') return undefined;
  for (const { where, text } of sources(hook, root)) {
    if (!text.includes('permissionDecision') || /\bbehavior\b/.test(text)) continue;
    return {
      severity: 'warning',
      message: `this PermissionRequest hook answers with permissionDecision (${where}), PreToolUse's field: PermissionRequest reads only hookSpecificOutput.decision, so its allow approves nothing (in Claude Code and here; a deny still counts). Answer {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}`,
      skipped: false,
    };
  }
  return undefined;
}
