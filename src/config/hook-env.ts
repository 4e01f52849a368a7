// A command hook's `env` and `inheritEnv` at load (docs/security.md, invariant 5): names are checked here,
// with diagnostics naming the JSON path; the subprocess runner checks them (and inherited values) again.

import { joinPath, renderValue } from '../contract/messages.js';
import { ENV_NAME, isReservedName, refusedEnvReason } from '../contract/refused-env.js';
import { isSecretName, secretValueKind } from '../contract/secret-names.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { RawHookSpec } from './schema.js';

/**
 * The hook's explicit `env`; a loader variable, bad name or NUL byte skips the hook (docs/security.md,
 * invariant 5).
 */
export function commandEnv(
  spec: RawHookSpec,
  path: string,
  sink: DiagnosticSink,
): Record<string, string> | undefined {
  const env: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(spec.env ?? {})) {
    const at = joinPath(joinPath(path, 'env'), k);
    if (!ENV_NAME.test(k)) {
      sink.error(at, `invalid environment variable name, got ${renderValue(k)}`);
      return undefined;
    }
    const refused = refusedEnvReason(k);
    if (refused !== undefined) {
      sink.error(at, `${refused}; the hook is skipped, got ${renderValue(v)}`);
      return undefined;
    }
    if (v.includes('\0')) {
      sink.error(at, `an environment value cannot contain a NUL byte, got ${renderValue(v)}`);
      return undefined;
    }
    if (isReservedName(k)) {
      sink.warn(at, `"${k}" is set by hookwarden for every command hook; this value is ignored`);
      continue;
    }
    env[k] = v;
  }
  return env;
}

/** The hook's `inheritEnv` names; a loader variable skips the hook, a secret-looking one is dropped. */
export function commandInheritEnv(
  spec: RawHookSpec,
  path: string,
  sink: DiagnosticSink,
): string[] | undefined {
  const inheritEnv: string[] = [];
  for (const [i, name] of (spec.inheritEnv ?? []).entries()) {
    const at = joinPath(joinPath(path, 'inheritEnv'), i);
    const refused = refusedEnvReason(name);
    if (refused !== undefined) {
      sink.error(at, `${refused}; the hook is skipped, got ${renderValue(name)}`);
      return undefined;
    }
    if (!ENV_NAME.test(name))
      sink.warn(at, `invalid environment variable name ignored, got ${renderValue(name)}`);
    else if (isReservedName(name))
      sink.warn(at, `"${name}" is set by hookwarden for every command hook and is not inherited`);
    else if (isSecretName(name)) {
      sink.warn(
        at,
        `"${name}" looks like a secret (or belongs to hookwarden) and is never passed to hooks; set it in "env" explicitly if it must be`,
      );
    } else {
      // Values are checked again at every spawn; a credential there now is worth saying at load.
      const kind = secretValueKind(process.env[name] ?? '');
      if (kind !== undefined) {
        sink.warn(
          at,
          `the current value of "${name}" carries a credential (${kind}) and is not passed to hooks`,
        );
      }
      inheritEnv.push(name);
    }
  }
  return inheritEnv;
}
