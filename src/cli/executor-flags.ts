// The createExecutor options that one-shot commands (dispatch, claude-code) and `serve` take from the
// same flags: --user-config files (user scope) before --config files, --policy, --root, and --audit
// with its --audit-key, --allow-http-url.
import type { ConfigSource, ExecutorOptions } from '../executor/options.js';
import { readKeyFlag } from './commands/audit.js';
import { UsageError } from './usage-error.js';

export interface SourceFlags {
  config?: string[];
  userConfig?: string[];
  policy?: string[];
  root?: string;
  audit?: string;
  auditKey?: string;
  /** --audit-required: a dispatch whose records cannot be written denies (deny-capable events). */
  auditRequired?: boolean;
  /** URL patterns http hooks may be sent to (as a policy file's allowedHttpHookUrls). */
  allowHttpUrl?: string[];
}

export function sourceOptions(
  flags: SourceFlags,
): Pick<ExecutorOptions, 'policy' | 'root' | 'audit' | 'allowedHttpHookUrls'> & { config: ConfigSource[] } {
  if (flags.auditKey !== undefined && flags.audit === undefined)
    throw new UsageError('--audit-key keys the --audit file: give --audit <file.jsonl> too');
  if (flags.auditRequired === true && flags.audit === undefined)
    throw new UsageError('--audit-required is about the --audit file: give --audit <file.jsonl> too');
  const key = flags.auditKey === undefined ? undefined : readKeyFlag(flags.auditKey, '--audit-key');
  return {
    config: [
      ...(flags.userConfig ?? []).map((path) => ({ path, scope: 'user' as const })),
      ...(flags.config ?? []),
    ],
    policy: flags.policy ?? [],
    ...(flags.root !== undefined ? { root: flags.root } : {}),
    ...(flags.allowHttpUrl !== undefined ? { allowedHttpHookUrls: flags.allowHttpUrl } : {}),
    ...(flags.audit !== undefined
      ? {
          audit:
            key === undefined && flags.auditRequired !== true
              ? flags.audit
              : {
                  file: flags.audit,
                  ...(key === undefined ? {} : { key }),
                  ...(flags.auditRequired === true ? { required: true } : {}),
                },
        }
      : {}),
  };
}
