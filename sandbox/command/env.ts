// A command hook's environment, built from scratch (DESIGN §5): a fixed PATH, LANG/TZ, HOME and
// TMPDIR in the per-invocation scratch dir, hookwarden's HOOK_* variables and the hook's explicit
// `env`, plus `inheritEnv` names from the host that pass the secret-name filter. Nothing else.
import { isSecretName } from '../../src/contract/secret-names.js';

export const FIXED_PATH = '/usr/local/bin:/usr/bin:/bin';

export function buildHookEnv(
  task: {
    readonly env: Readonly<Record<string, string>>;
    readonly inheritEnv: readonly string[];
    readonly scratchDir: string;
  },
  hostEnv: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = Object.create(null);
  env.PATH = FIXED_PATH;
  env.LANG = 'C.UTF-8';
  env.TZ = 'UTC';
  for (const name of task.inheritEnv) {
    const value = hostEnv[name];
    if (value !== undefined && !isSecretName(name)) env[name] = value;
  }
  for (const [k, v] of Object.entries(task.env)) env[k] = v;
  // Scratch locations last: a hook cannot point HOME or TMPDIR back at the host's.
  env.HOME = task.scratchDir;
  env.TMPDIR = task.scratchDir;
  return env;
}
