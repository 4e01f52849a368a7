// A small stand-in for Claude Code running command hooks (its hooks reference, the parts the install
// tests need): pick an event's matcher groups, apply `if`, run every handler in parallel as a real
// process (shell form through `sh -c`, exec form with placeholders substituted) with the input on
// stdin, and read the answers as Claude Code does (exit 2, permissionDecision, decision.behavior,
// decision "block"). The tests run a settings file through it before and after `install`.
import { spawn } from 'node:child_process';

type Obj = Record<string, unknown>;

export interface ClaudeCodeEnv {
  /** CLAUDE_PROJECT_DIR, and the working directory of every hook. */
  readonly projectDir: string;
  /** CLAUDE_PLUGIN_ROOT, for a plugin's hooks. */
  readonly pluginRoot?: string;
}

export interface HandlerRun {
  readonly command: string;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface ClaudeCodeOutcome {
  /** Whether the action is blocked (denied), and the reason Claude Code would show. */
  readonly blocked: boolean;
  readonly reason: string | undefined;
  readonly runs: readonly HandlerRun[];
}

/** Claude Code 2.1.333's exact form on tool events (its shipped matcher code). */
const EXACT = /^[a-zA-Z0-9_|, -]+$/;

/**
 * Claude Code's matcher rules: all, an exact list (empty names dropped), or an unanchored JavaScript
 * regular expression; an invalid one matches nothing.
 */
export function ccMatches(matcher: unknown, value: string | undefined): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (typeof matcher !== 'string' || value === undefined) return false;
  if (EXACT.test(matcher))
    return matcher
      .split(/[|,]/)
      .map((n) => n.trim())
      .filter(Boolean)
      .includes(value);
  try {
    return new RegExp(matcher).test(value);
  } catch {
    return false;
  }
}

/** `Tool(glob)` against a tool call: the glob's `*` matches anything (enough for these fixtures). */
function ifMatches(rule: unknown, input: Obj): boolean {
  if (rule === undefined) return true;
  const m = /^([A-Za-z]+)\((.*)\)$/.exec(String(rule));
  if (m === null || m[1] !== input.tool_name) return false;
  const toolInput = (input.tool_input ?? {}) as Obj;
  const subject = String(toolInput.command ?? toolInput.file_path ?? '');
  const glob = new RegExp(`^${m[2]!.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return glob.test(subject);
}

function run(handler: Obj, input: Obj, env: ClaudeCodeEnv): Promise<HandlerRun> {
  const vars: Record<string, string> = {
    CLAUDE_PROJECT_DIR: env.projectDir,
    ...(env.pluginRoot === undefined ? {} : { CLAUDE_PLUGIN_ROOT: env.pluginRoot }),
  };
  const fill = (s: string) => s.replace(/\$\{(CLAUDE_[A-Z_]+)\}/g, (all, name: string) => vars[name] ?? all);
  const command = String(handler.command);
  const [file, args] = Array.isArray(handler.args)
    ? [fill(command), handler.args.map((a) => fill(String(a)))]
    : ['/bin/sh', ['-c', command]];
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: env.projectDir,
      env: { ...process.env, ...vars },
      timeout: Number(handler.timeout ?? 600) * 1000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ command, code, stdout, stderr }));
    child.stdin.on('error', () => {}); // a hook that does not read its input
    child.stdin.end(JSON.stringify(input));
  });
}

/** Why one handler's answer blocks, or undefined. */
function blockOf(r: HandlerRun): string | undefined {
  if (r.code === 2) {
    try {
      const out = JSON.parse(r.stdout) as Obj;
      const spec = (out.hookSpecificOutput ?? {}) as Obj;
      const reason = spec.permissionDecisionReason ?? out.reason;
      if (typeof reason === 'string') return reason;
    } catch {
      // no JSON: stderr is the reason
    }
    return r.stderr.trim();
  }
  if (r.code !== 0 || !r.stdout.trim().startsWith('{')) return undefined;
  const out = JSON.parse(r.stdout) as Obj;
  const spec = (out.hookSpecificOutput ?? {}) as Obj;
  const decision = (spec.decision ?? {}) as Obj;
  if (spec.permissionDecision === 'deny') return String(spec.permissionDecisionReason ?? '');
  if (decision.behavior === 'deny') return String(decision.message ?? '');
  if (out.decision === 'block') return String(out.reason ?? '');
  return undefined;
}

/** Runs the command hooks `hooks` has for the input's event, as Claude Code would. */
export async function runAsClaudeCode(
  hooks: Obj,
  input: Obj,
  env: ClaudeCodeEnv,
): Promise<ClaudeCodeOutcome> {
  const event = String(input.hook_event_name);
  const groups = (Array.isArray(hooks[event]) ? hooks[event] : []) as Obj[];
  const handlers = groups
    .filter((g) => ccMatches(g.matcher, input.tool_name as string | undefined))
    .flatMap((g) => g.hooks as Obj[])
    .filter((h) => h.type === 'command' && h.async !== true && ifMatches(h.if, input));
  const runs = await Promise.all(handlers.map((h) => run(h, input, env)));
  const reasons = runs.map(blockOf).filter((r): r is string => r !== undefined);
  return { blocked: reasons.length > 0, reason: reasons[0], runs };
}

/** Claude Code's PreToolUse input for a Bash call. */
export const bashInput = (command: string, extra: Record<string, unknown> = {}) => ({
  session_id: 's1',
  cwd: '/tmp',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: 't1',
  ...extra,
});

/** A Claude Code command handler. */
export const ccCommand = (command: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command,
  ...extra,
});

/** A Claude Code settings.json with one group of `hooks` on `event`. */
export const ccSettings = (event: string, hooks: unknown[], matcher?: string) => ({
  hooks: { [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks }] },
});
