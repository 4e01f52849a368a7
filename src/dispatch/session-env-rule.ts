// The session-env rule applied to one hook's answer before it is folded (docs/security.md), whatever
// kind of hook answered: what it wrote to CLAUDE_ENV_FILE, its `sessionEnvScript` and its
// `sessionEnv` are judged together (contract/session-env.ts) against the policy's consent, the host's
// PATH and home, and the project root. What is kept becomes the answer's `sessionEnvScript` (the
// bash, in order) and `sessionEnv` (the literal values); every refusal is named in the record.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { HookAnswer } from '../contract/fold.js';
import { isUnder, judgeSessionEnv, normalizeDir, type SessionEnvRule } from '../contract/session-env.js';
import type { HookOutput } from '../contract/types.js';
import type { RegisteredHook } from '../registry/registry.js';
import type { DispatchRun } from './run.js';

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Whether `dir` is inside `root`, by its name or by where its links lead. */
function insideProject(root: string): (dir: string) => boolean {
  const roots = [root, real(root)].filter((r): r is string => r !== undefined);
  return (dir) => {
    const dirs = [dir, real(dir)].filter((d): d is string => d !== undefined);
    return dirs.some((d) => roots.some((r) => isUnder(d, r)));
  };
}

/**
 * Whether the hook ran where it could not touch the host: a command hook in namespace mode, a JS
 * hook in its isolate or a wasm hook in its instance. Such a hook needs the policy's consent for PATH even at policy scope.
 */
function sandboxed(hook: RegisteredHook, answer: HookAnswer): boolean {
  if (hook.type === 'js' || hook.type === 'wasm') return true;
  if (hook.type !== 'command') return false;
  const ran = answer.kind === 'output' ? answer.sandbox?.containment : undefined;
  return ran === 'namespace' || hook.command.isolation === 'namespace';
}

function ruleFor(run: DispatchRun, hook: RegisteredHook, answer: HookAnswer): SessionEnvRule {
  const home = process.env.HOME || homedir() || undefined;
  const consent = run.gen.sessionEnv;
  const pathDirs = consent.pathDirs.flatMap((d) =>
    d.startsWith('~') ? (home === undefined ? [] : [normalizeDir(`${home}${d.slice(1)}`)]) : [d],
  );
  const hostPath = (process.env.PATH ?? '')
    .split(':')
    .filter((d) => d.startsWith('/'))
    .map(normalizeDir);
  return {
    writer: { scope: hook.scope, sandboxed: sandboxed(hook, answer) },
    allow: new Set(consent.allow),
    pathDirs,
    hostPath,
    home,
    inProject: insideProject(resolve(run.ctx.root)),
  };
}

/** `answer` with its session env judged: kept as bash and literals, every refusal named. */
export function applySessionEnvRule(run: DispatchRun, hook: RegisteredHook, answer: HookAnswer): HookAnswer {
  if (answer.kind !== 'output') return answer;
  const { output, envFile } = answer;
  if (output?.sessionEnv === undefined && output?.sessionEnvScript === undefined && envFile === undefined)
    return answer;
  // An event without a session env: the fold lists the fields as ignored.
  if (!run.def.honours.includes('sessionEnv') && !run.def.honours.includes('sessionEnvScript')) return answer;
  const kept = judgeSessionEnv(
    { file: envFile, script: output?.sessionEnvScript, env: output?.sessionEnv },
    ruleFor(run, hook, answer),
  );
  const next: HookOutput = Object.assign(Object.create(null), output);
  delete next.sessionEnv;
  delete next.sessionEnvScript;
  if (Object.keys(kept.env).length > 0) next.sessionEnv = kept.env;
  if (kept.script !== '') next.sessionEnvScript = kept.script;
  const { envFile: _read, ...rest } = answer;
  return {
    ...rest,
    output: Object.keys(next).length === 0 && output === undefined ? undefined : next,
    unknownFields: [...(answer.unknownFields ?? []), ...kept.ignored],
    ...(kept.warnings.length === 0 ? {} : { warnings: [...(answer.warnings ?? []), ...kept.warnings] }),
  };
}
