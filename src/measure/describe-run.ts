// What makes a saved bench result self-describing: which hookwarden ran it (version, git commit),
// the hooks the configuration registers for the event (type, isolation, a digest of each), and
// the input (or only its digest). Nothing here may fail the run: without git, the commit is null.
import { execFileSync } from 'node:child_process';
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
import { hookDigest, sha256 } from './hook-digest.js';

/** The package root: the nearest directory above this file with a package.json. */
export function packageRoot(): string | undefined {
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

/** Where a hook runs, as bench results name it. */
function isolationOf(h: HookDefinition): ConfiguredHook['isolation'] {
  if (h.type === 'command')
    return h.command.isolation === 'process' && h.command.containment === 'require'
      ? 'contained'
      : h.command.isolation;
  if (h.type === 'js') return 'quickjs';
  if (h.type === 'wasm') return 'wasm';
  return h.type === 'http' ? 'remote' : 'platform';
}

/**
 * The hooks registered for `events` (default: the run's event; default tenant: policy, project,
 * user), in order, each with whether its event can deny (a failure that lets the call proceed is
 * then a security failure).
 */
export async function describeHooks(
  options: Omit<BenchOptions, 'event'>,
  events: readonly string[],
): Promise<ConfiguredHook[]> {
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
  const wanted = new Map(
    events.flatMap((e) => {
      const d = loaded.catalogue.resolve(e)?.definition;
      return d === undefined ? [] : [[d.name, d.canDeny] as const];
    }),
  );
  const root = options.root ?? process.cwd();
  return loaded.hooks
    .filter((h) => wanted.has(h.event))
    .map((h) => ({
      id: h.id,
      type: h.type,
      scope: h.scope,
      isolation: isolationOf(h),
      digest: hookDigest(h, root),
      event: h.event,
      onError: h.onError,
      canDeny: wanted.get(h.event) === true,
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
