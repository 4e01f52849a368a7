// The checks of createExecutor()'s options that resolveOptions (options.ts) runs in order: the root,
// `limits`, the scalar options (audit, onceStateDir, scratchRoot, the flags and callbacks), and
// `remotePacks`. Each throws `invalid_options` naming the option and the value received.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AuditOption } from '../audit/audit-log.js';
import type { Limits } from '../config/defaults.js';
import { limitsSchema } from '../config/limits-schema.js';
import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { issueMessages, renderValue } from '../contract/messages.js';
import { type RemotePackOptions, remotePackOptionsSchema } from '../packs/remote/options.js';

const AUDIT_KEYS = optionKeys<Exclude<AuditOption, string | ((...a: never[]) => unknown)>>()([
  'file',
  'key',
  'fsync',
  'onRecord',
  'required',
  'decisionLog',
]);
const LIMIT_KEYS: ReadonlySet<string> = new Set(Object.keys(limitsSchema.shape));
const REMOTE_KEYS: ReadonlySet<string> = new Set(Object.keys(remotePackOptionsSchema.shape));

const invalid = (message: string) => new HookwardenError('invalid_options', message);

/** The root as an absolute path: an existing directory (default: the working directory). */
export function checkRoot(given: string | undefined): string {
  const root = resolve(given ?? process.cwd());
  let isDir = false;
  try {
    isDir = statSync(root).isDirectory();
  } catch {}
  if (!isDir) throw invalid(`root: expected an existing directory, got ${renderValue(given ?? root)}`);
  return root;
}

/** `limits`, parsed: the fields given (undefined ones left out). */
export function parseLimits(given: unknown): Partial<Limits> {
  refuseUnknownOptions(given, LIMIT_KEYS, 'limits');
  const limits = limitsSchema.safeParse(given ?? {});
  if (!limits.success) {
    const problems = issueMessages(limits.error.issues, given, 'limits').map(
      (m) => `${m.path}: ${m.message}`,
    );
    throw new HookwardenError('invalid_options', problems.join('; '), { problems });
  }
  return Object.fromEntries(
    Object.entries(limits.data).filter(([, v]) => v !== undefined),
  ) as Partial<Limits>;
}

/** `remotePacks`, parsed. */
export function parseRemotePacks(given: unknown): RemotePackOptions {
  refuseUnknownOptions(given, REMOTE_KEYS, 'remotePacks');
  const remote = remotePackOptionsSchema.safeParse(given ?? {});
  if (!remote.success) {
    const problems = issueMessages(remote.error.issues, given, 'remotePacks').map(
      (m) => `${m.path}: ${m.message}`,
    );
    throw new HookwardenError('invalid_options', problems.join('; '), { problems });
  }
  return remote.data as RemotePackOptions;
}

/** The options checkScalarOptions looks at, as given (ExecutorOptions' fields of these names). */
type ScalarOptions = {
  readonly [K in
    | 'audit'
    | 'onceStateDir'
    | 'scratchRoot'
    | 'watch'
    | 'prestartJsWorkers'
    | 'strict']?: unknown;
} & { readonly onReload?: unknown; readonly onWarning?: unknown };

/** audit, onceStateDir, scratchRoot, the boolean flags and the callbacks. */
export function checkScalarOptions(options: ScalarOptions): void {
  const { audit, onceStateDir, scratchRoot } = options;
  if (audit !== undefined && (audit === null || !['string', 'function', 'object'].includes(typeof audit)))
    throw invalid(
      `audit: expected a file path, a callback or {file, fsync, onRecord}, got ${renderValue(audit)}`,
    );
  if (onceStateDir !== undefined && (typeof onceStateDir !== 'string' || onceStateDir === ''))
    throw invalid(`onceStateDir: expected a directory path, got ${renderValue(onceStateDir)}`);
  if (typeof audit === 'object') refuseUnknownOptions(audit, AUDIT_KEYS, 'audit');
  if (scratchRoot !== undefined) {
    let ok = false;
    try {
      ok = typeof scratchRoot === 'string' && statSync(scratchRoot).isDirectory();
    } catch {}
    if (!ok) throw invalid(`scratchRoot: expected an existing directory, got ${renderValue(scratchRoot)}`);
  }
  for (const key of ['watch', 'prestartJsWorkers', 'strict'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean')
      throw invalid(`${key}: expected true or false, got ${renderValue(options[key])}`);
  }
  for (const key of ['onReload', 'onWarning'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function')
      throw invalid(`${key}: expected a function, got ${renderValue(options[key])}`);
  }
}
