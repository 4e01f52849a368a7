// Keeps this process's secrets out of reach of the hooks it runs (docs/security.md, invariant 6), on every
// path: hookwarden holds its secrets (a queue URL's password, auth tokens, the audit key) in memory,
// and the environment it was started with (an agent's API keys) sits in its /proc/<pid>/environ. A
// contained hook never sees this process at all; an uncontained one (process mode where the kernel
// refuses the namespaces) runs as the same user beside it, so:
//   - the process is made not dumpable (no-dump.c, built by `npm run build`): its environ, memory and
//     descriptors then need CAP_SYS_PTRACE, which no process-mode hook has (they run without
//     capabilities, root included);
//   - a secret-looking command-line argument is blanked in /proc/<pid>/cmdline (world-readable
//     whatever the process is), which `process.title` overwrites in place.
// Both happen once, at the CLI's start and before an executor's first command hook.
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { secretValueKind } from '../contract/secret-names.js';

export interface GuardState {
  /** The process is not dumpable. */
  readonly guarded: boolean;
  /** Why not (the module was not built, or it failed). */
  readonly reason?: string;
}

let state: GuardState | undefined;

function modulePath(): string[] {
  return [
    new URL('../../native/hw-no-dump.node', import.meta.url),
    new URL('../../dist/native/hw-no-dump.node', import.meta.url),
  ].map((u) => fileURLToPath(u));
}

/** Marks the process not dumpable (once; later calls return the first answer). */
export function guardHostProcess(): GuardState {
  if (state !== undefined) return state;
  let reason = 'hw-no-dump.node was not built (no C compiler at npm run build)';
  for (const path of modulePath()) {
    const module = { exports: {} as unknown };
    try {
      process.dlopen(module, path, constants.dlopen.RTLD_NOW);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_DLOPEN_FAILED' && /No such file/.test(String(err)))
        continue;
      reason = `cannot load ${path}: ${(err as Error).message.split('\n')[0]}`;
      break;
    }
    state =
      module.exports === true
        ? { guarded: true }
        : { guarded: false, reason: 'prctl(PR_SET_DUMPABLE) failed' };
    return state;
  }
  state = { guarded: false, reason };
  return state;
}

/** A credential in an argument: `--queue redis://:pw@host`, `--token=…`, a token's shape. */
function secretArgument(arg: string): boolean {
  const value = arg.startsWith('--') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg;
  return secretValueKind(value) !== undefined;
}

/**
 * Blanks secret-looking arguments in this process's /proc/<pid>/cmdline (the values stay in
 * `process.argv`). `process.title` writes over the original argument area, up to its length.
 */
export function hideSecretArguments(argv: readonly string[] = process.argv): boolean {
  if (!argv.slice(2).some(secretArgument)) return false;
  const shown = argv.map((a, i) => (i >= 2 && secretArgument(a) ? '***' : a));
  process.title = shown.join(' ');
  return true;
}
