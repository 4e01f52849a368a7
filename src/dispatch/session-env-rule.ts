// The session-env rule applied to one hook's answer before it is folded (docs/security.md), whatever
// kind of hook answered: what it wrote to CLAUDE_ENV_FILE, its `sessionEnvScript` and its
// `sessionEnv` are judged together (contract/session-env.ts) against the policy's consent, the host's
// PATH and home, and the project root. What is kept becomes the answer's `sessionEnvScript` (the
// bash, in order) and `sessionEnv` (the literal values); every refusal is named in the record.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { tenantGrant } from '../config/grants.js';
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
 * hook in its isolate or a wasm hook in its instance. Whatever such a hook writes for the session
 * goes by the allow-list, at any scope.
 */
function sandboxed(hook: RegisteredHook, answer: HookAnswer): boolean {
  if (hook.type === 'js' || hook.type === 'wasm') return true;
  if (hook.type !== 'command') return false;
  const ran = answer.kind === 'output' ? answer.sandbox?.containment : undefined;
  return ran === 'namespace' || hook.command.isolation === 'namespace';
}

/**
 * Who wrote the session env, and whether it is free (any name but the loader's, PATH as written):
 * the operator's unsandboxed hooks (policy, trusted) and the user's own unsandboxed hooks of the
 * user's own files (unless the policy narrows them). An answer that came from a server (http) or a
 * model (prompt, agent) is never free below policy scope, nor is a tenant's, a project's or a
 * sandboxed hook's.
 */
function sessionEnvWriter(
  run: DispatchRun,
  hook: RegisteredHook,
  answer: HookAnswer,
): SessionEnvRule['writer'] {
  const tenant = run.tenant !== '' && hook.scope !== 'policy' && hook.scope !== 'trusted';
  if (tenant) return { free: false, who: `tenant "${run.tenant}"'s hook` };
  if (sandboxed(hook, answer))
    return { free: false, who: hook.type === 'js' ? 'a JS hook' : 'a namespace-mode hook' };
  if (hook.scope === 'project') return { free: false, who: 'a project hook' };
  if (hook.type === 'prompt' || hook.type === 'agent')
    return { free: false, who: `a ${hook.type} hook (a model's answer)` };
  if (hook.scope === 'user') {
    if (hook.type === 'http') return { free: false, who: "a user file's http hook (a server's answer)" };
    if (run.gen.sessionEnv.narrowUserHooks)
      return { free: false, who: 'a user hook (the policy narrows them: sessionEnv.narrowUserHooks)' };
  }
  return { free: true, who: `a ${hook.scope} hook` };
}

/** The names beyond the built-in list this writer may set: the policy's, plus its tenant's or project's grant. */
function allowed(run: DispatchRun, hook: RegisteredHook): Set<string> {
  const names = [...run.gen.sessionEnv.allow];
  const own = hook.scope !== 'policy' && hook.scope !== 'trusted';
  if (own && run.tenant !== '') names.push(...(tenantGrant(run.gen.grants, run.tenant).sessionEnv ?? []));
  else if (own && hook.scope === 'project') names.push(...(run.gen.grants.project.sessionEnv ?? []));
  return new Set(names.map((n) => n.toUpperCase()));
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
    writer: sessionEnvWriter(run, hook, answer),
    allow: allowed(run, hook),
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
