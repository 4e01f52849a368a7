// What makes a saved bench result self-describing: which hookwarden ran it (version, git commit),
// the hooks the configuration registers for the event (type, isolation, a digest of each), and
// the input (or only its digest). Nothing here may fail the run: without git, the commit is null.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from '../contract/version.js';
import { loadResolvedConfig } from '../executor/load-options.js';
import { resolveOptions } from '../executor/options.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import { canonicalJson } from '../registry/hook-id.js';
import type { BenchOptions } from './bench-options.js';
import type { BuildInfo, ConfiguredHook, InputInfo } from './bench-result.js';

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** The package root: the nearest directory above this file with a package.json. */
function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return undefined;
}

function git(root: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', ['-C', root, '-c', 'core.fsmonitor=false', ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
      // The user's git configuration may not run anything of its own here.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent' },
    }).trim();
  } catch {
    return undefined;
  }
}

/** hookwarden's version, and the git commit when it runs from a checkout (null otherwise). */
export function describeBuild(): BuildInfo {
  const root = packageRoot();
  const commit = root === undefined ? undefined : git(root, ['rev-parse', 'HEAD']);
  if (root === undefined || commit === undefined || !/^[0-9a-f]{40,64}$/.test(commit))
    return { version: VERSION, commit: null, dirty: null };
  const status = git(root, ['status', '--porcelain', '--untracked-files=no']);
  return { version: VERSION, commit, dirty: status === undefined ? null : status !== '' };
}

/** What a hook does, without where it was loaded from: the same hook digests the same on every machine. */
function hookIdentity(h: HookDefinition): unknown {
  const base = { type: h.type, onError: h.onError, deadlineMs: h.deadlineMs, once: h.once };
  if (h.type === 'js')
    return { ...base, code: h.js.code, memoryBytes: h.js.memoryBytes, maxOutputBytes: h.js.maxOutputBytes };
  if (h.type === 'http') {
    const { url, headers, envVars, maxOutputBytes } = h.http;
    return { ...base, url, headers, envVars, maxOutputBytes };
  }
  if (h.type === 'prompt' || h.type === 'agent') {
    const { prompt, model, continueOnBlock } = h.evaluator;
    return { ...base, prompt, model: model ?? null, continueOnBlock: continueOnBlock ?? null };
  }
  const c = h.command;
  return {
    ...base,
    program: c.program,
    env: c.env,
    inheritEnv: c.inheritEnv,
    isolation: c.isolation,
    writable: c.writable,
    runAs: c.runAs ?? null,
    rlimits: c.rlimits,
    maxOutputBytes: c.maxOutputBytes,
  };
}

/** Where a hook runs, as bench results name it. */
function isolationOf(h: HookDefinition): ConfiguredHook['isolation'] {
  if (h.type === 'command') return h.command.isolation;
  if (h.type === 'js') return 'quickjs';
  return h.type === 'http' ? 'remote' : 'platform';
}

/** The hooks registered for `event` (default tenant: policy, project, user), in order. */
export async function describeHooks(options: BenchOptions): Promise<ConfiguredHook[]> {
  const resolved = resolveOptions({
    ...(options.config !== undefined ? { config: options.config } : {}),
    ...(options.policy !== undefined ? { policy: options.policy } : {}),
    ...(options.limits !== undefined ? { limits: options.limits } : {}),
    ...(options.allowedHttpHookUrls !== undefined
      ? { allowedHttpHookUrls: options.allowedHttpHookUrls }
      : {}),
    onWarning: () => {},
  });
  const loaded = await loadResolvedConfig(resolved);
  const event = loaded.catalogue.resolve(options.event)?.definition.name;
  return loaded.hooks
    .filter((h) => h.event === event)
    .map((h) => ({
      id: h.id,
      type: h.type,
      scope: h.scope,
      isolation: isolationOf(h),
      digest: sha256(canonicalJson(hookIdentity(h))),
    }));
}

/** The input's digest, and the input itself unless it is redacted. */
export function describeInput(
  input: Readonly<Record<string, unknown>>,
  redact: boolean,
  varied: boolean,
): InputInfo {
  const json = canonicalJson(input);
  return {
    digest: sha256(json),
    ...(redact ? {} : { value: JSON.parse(json) as Record<string, unknown> }),
    varied,
  };
}
