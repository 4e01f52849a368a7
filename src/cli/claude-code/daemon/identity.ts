// Which configuration a daemon answers for, as one string: the adapter (Claude Code's or an agent's),
// its config identity (files with their scope, and the sandbox root: config-identity.ts), --strict,
// the url-pin cache directory, and the hookwarden settings of the environment that change how hooks are started. The
// daemon computes its own once, and the same from each caller's arguments, working directory and
// environment: it answers only a caller whose string is its own. Content is checked apart (the
// digests of what its load read).
import { resolve } from 'node:path';
import { defaultPackCacheDir } from '../../../packs/remote/options.js';
import { identityOf } from '../../adapter/run-adapter.js';
import type { AdapterFlags } from '../flags.js';
import { MACHINERY_ENV } from './daemon-env.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The flags with every path made absolute against the caller's working directory. */
export function absoluteFlags(flags: AdapterFlags, cwd: string): AdapterFlags {
  const abs = (p: string) => resolve(cwd, p);
  return {
    ...flags,
    ...(flags.config === undefined ? {} : { config: flags.config.map(abs) }),
    ...(flags.userConfig === undefined ? {} : { userConfig: flags.userConfig.map(abs) }),
    ...(flags.policy === undefined ? {} : { policy: flags.policy.map(abs) }),
    root: abs(flags.root ?? '.'),
    ...(flags.packCache === undefined ? {} : { packCache: abs(flags.packCache) }),
  };
}

/** The identity of the configuration `flags` name for the adapter `command`, for a caller in `cwd` with `env`. */
export function daemonIdentity(command: string, flags: AdapterFlags, env: Env, cwd: string): string {
  const machinery: Record<string, string | null> = {};
  for (const name of MACHINERY_ENV) machinery[name] = env[name] ?? null;
  return JSON.stringify({
    // Per-call flags (--timeout, Copilot's --event, Cursor's --explicit-allow) are not part of it:
    // each call brings its own, and the answer is written with them.
    adapter: command,
    config: identityOf(flags, cwd) ?? null,
    strict: flags.strict === true,
    packCache: resolve(cwd, flags.packCache ?? defaultPackCacheDir(env)),
    machinery,
  });
}
