// `hookwarden dispatch <event>`: prints the DispatchResult JSON on stdout; exit 0 proceed (allow,
// ask, passthrough), 2 deny, 1 usage/config error. Warnings go to stderr.
import { HookwardenError } from '../../contract/hookwarden-error.js';
import { createExecutor } from '../../executor/executor.js';
import type { ConfigSource } from '../../executor/options.js';
import { readCliInput } from '../read-input.js';
import { UsageError } from '../usage-error.js';
import { readKeyFlag } from './audit.js';

export interface DispatchFlags {
  config?: string[];
  userConfig?: string[];
  policy?: string[];
  input?: string;
  tenant?: string;
  audit?: string;
  auditKey?: string;
  root?: string;
  pretty?: boolean;
}

export async function runDispatch(event: string, flags: DispatchFlags): Promise<number> {
  const config: ConfigSource[] = [
    ...(flags.userConfig ?? []).map((path) => ({ path, scope: 'user' as const })),
    ...(flags.config ?? []),
  ];
  if (config.length === 0 && (flags.policy ?? []).length === 0) {
    throw new UsageError(
      'dispatch needs at least one --config <file> (or --policy <file>); see `hookwarden dispatch --help`',
    );
  }
  if (flags.auditKey !== undefined && flags.audit === undefined)
    throw new UsageError('--audit-key keys the --audit file: give --audit <file.jsonl> too');
  const key = flags.auditKey === undefined ? undefined : readKeyFlag(flags.auditKey, '--audit-key');
  const input = await readCliInput(flags.input, event);
  const executor = await createExecutor({
    config,
    policy: flags.policy ?? [],
    ...(flags.root !== undefined ? { root: flags.root } : {}),
    ...(flags.audit !== undefined
      ? { audit: key === undefined ? flags.audit : { file: flags.audit, key } }
      : {}),
  });
  if (flags.tenant !== undefined && !executor.tenants.includes(flags.tenant)) {
    process.stderr.write(
      `hookwarden: warning: --tenant: no tenant "${flags.tenant}" in the config's "tenants"; only trusted and policy hooks run for it\n`,
    );
  }
  const abort = new AbortController();
  const onSignal = () => abort.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const result = await executor.dispatch(event, input, { signal: abort.signal, tenant: flags.tenant });
    process.stdout.write(`${JSON.stringify(result, null, flags.pretty === true ? 2 : undefined)}\n`);
    return result.decision === 'deny' ? 2 : 0;
  } catch (err) {
    if (err instanceof HookwardenError && (err.code === 'unknown_event' || err.code === 'invalid_input')) {
      throw new UsageError(err.message);
    }
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await executor.close();
  }
}
