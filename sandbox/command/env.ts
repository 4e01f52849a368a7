// A command hook's environment, built from scratch (docs/security.md): a fixed PATH, LANG/TZ, HOME and
// TMPDIR in the per-invocation scratch dir, hookwarden's HOOK_* variables and the hook's explicit
// `env`, plus `inheritEnv` host variables whose name and value pass the secret filter. Nothing else.
// Only the hook's own process is started with it: the machinery that starts the hook (hw-exec,
// prlimit, bwrap) runs with an empty environment and receives this one through a side channel
// (process-profile.ts, namespace-profile.ts). The load-time checks are made again here, because a
// task can reach the runner without going through the config loader.
import { join } from 'node:path';
import { ENV_FILE_NAME } from '../../src/contract/command-task.js';
import { ENV_NAME, isReservedName, refusedEnvReason } from '../../src/contract/refused-env.js';
import { isSecretName, secretValueKind } from '../../src/contract/secret-names.js';

const FIXED_PATH = '/usr/local/bin:/usr/bin:/bin';

export type HookEnv =
  | { readonly ok: true; readonly env: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly message: string };

export function buildHookEnv(
  task: {
    readonly env: Readonly<Record<string, string>>;
    readonly inheritEnv: readonly string[];
    readonly scratchDir: string;
    readonly hostHome?: boolean | undefined;
    readonly envFile?: boolean | undefined;
    readonly isolation?: 'process' | 'namespace';
  },
  hostEnv: NodeJS.ProcessEnv = process.env,
): HookEnv {
  const env: Record<string, string> = Object.create(null);
  env.PATH = FIXED_PATH;
  env.LANG = 'C.UTF-8';
  env.TZ = 'UTC';
  for (const name of task.inheritEnv) {
    const refused = refusedEnvReason(name);
    if (refused !== undefined) return { ok: false, message: `inheritEnv: ${refused}; the hook was not run` };
    // Checked at load with a warning; here the entry is just not passed.
    if (!ENV_NAME.test(name) || isReservedName(name) || isSecretName(name)) continue;
    const value = hostEnv[name];
    // A value is checked when it is known: DATABASE_URL=postgres://u:password@… never passes.
    if (value !== undefined && secretValueKind(value) === undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(task.env)) {
    const refused = refusedEnvReason(name);
    if (refused !== undefined) return { ok: false, message: `env: ${refused}; the hook was not run` };
    if (!ENV_NAME.test(name)) {
      return {
        ok: false,
        message: `env: invalid variable name ${JSON.stringify(name)}; the hook was not run`,
      };
    }
    // A NUL would split one value into several records (or bwrap arguments) on the way in.
    if (value.includes('\0')) {
      return { ok: false, message: `env: the value of "${name}" contains a NUL byte; the hook was not run` };
    }
    env[name] = value;
  }
  // Scratch locations last: a hook cannot point HOME or TMPDIR back at the host's. A Claude Code
  // hook in process mode gets the host's HOME (an absolute path that passes the secret filter).
  const home = hostEnv.HOME;
  const hostHome =
    task.hostHome === true &&
    task.isolation !== 'namespace' &&
    home?.startsWith('/') === true &&
    !home.includes('\0') &&
    secretValueKind(home) === undefined;
  env.HOME = hostHome ? home : task.scratchDir;
  if (task.envFile === true) env.CLAUDE_ENV_FILE = join(task.scratchDir, ENV_FILE_NAME);
  env.TMPDIR = task.scratchDir;
  return { ok: true, env };
}
