// Which variable names a hook's `env` and `inheritEnv` may not carry (docs/security.md, invariant 5).
// Dependency-free: the config loader refuses them at load, and the subprocess runner checks again at spawn.
//
// The sandbox's machinery (hw-exec, prlimit, bwrap) starts with an empty environment, so these
// variables could only ever reach the hook's own processes. They are refused anyway, in both
// isolation modes: they are how code gets loaded into a program before its main() runs, a config
// that is fine in `process` mode must not change meaning when `limits.minIsolation` raises it to
// `namespace`, and a refusal cannot be undone by a later change to how the machinery is started.

/** A portable environment variable name. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Read by the dynamic loader or the C library: glibc's `UNSECURE_ENVVARS` (sysdeps/generic/
 * unsecvars.h, the variables it strips for setuid programs), its malloc tunables and
 * GLIBC_TUNABLES. `LD_*` and `MALLOC_*` are refused as whole prefixes (below).
 */
export const LOADER_VARIABLES: readonly string[] = Object.freeze([
  'GCONV_PATH',
  'GETCONF_DIR',
  'GLIBC_TUNABLES',
  'HOSTALIASES',
  'LOCALDOMAIN',
  'LOCPATH',
  'NIS_PATH',
  'NLSPATH',
  'RESOLV_HOST_CONF',
  'RES_OPTIONS',
  'TZDIR',
]);

/** Every name with one of these prefixes is refused: LD_PRELOAD, LD_AUDIT, LD_LIBRARY_PATH…, MALLOC_CHECK_, MALLOC_ARENA_MAX… */
export const LOADER_PREFIXES: readonly string[] = Object.freeze(['LD_', 'MALLOC_']);

const LOADER_SET = new Set(LOADER_VARIABLES);

/**
 * Why `name` may never be passed to a hook, or undefined when it may. Compared case-insensitively:
 * nothing legitimate is called `ld_preload`, and no platform's case folding can turn it back.
 */
export function refusedEnvReason(name: string): string | undefined {
  const upper = name.toUpperCase();
  if (LOADER_SET.has(upper) || LOADER_PREFIXES.some((p) => upper.startsWith(p))) {
    return `"${name}" is read by the dynamic loader or the C library (it can load code into a program before it starts) and is never passed to hooks`;
  }
  return undefined;
}

/**
 * What a hook may not set for the rest of a session (CLAUDE_ENV_FILE, `sessionEnv`): every variable
 * that makes a later host-side command run code nobody reviewed — shell start-up files and hooks,
 * interpreter start-up code and module paths, git's and ssh's command overrides — besides the loader
 * and libc variables refused everywhere. PATH decides which program every later command is: only a
 * policy-scope hook (not sandboxed) may change it.
 */
export const SESSION_ENV_REFUSED: readonly string[] = Object.freeze([
  'BASH_ENV',
  'ENV',
  'PROMPT_COMMAND',
  'PS0',
  'PS4',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'CDPATH',
  'GLOBIGNORE',
  'ZDOTDIR',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_EXTRA_CA_CERTS',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONUSERBASE',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  'GIT_SSH_COMMAND',
  'GIT_SSH',
  'GIT_EXEC_PATH',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_PARAMETERS',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'GIT_EDITOR',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'GIT_PAGER',
  'LESSOPEN',
  'LESSCLOSE',
  'SHELL',
  'HOME',
  'XDG_CONFIG_HOME',
  'SUDO_ASKPASS',
  'DOCKER_HOST',
  'KUBECONFIG',
  'NPM_CONFIG_USERCONFIG',
  'npm_config_userconfig',
]);
const SESSION_REFUSED_SET = new Set(SESSION_ENV_REFUSED.map((n) => n.toUpperCase()));
/** Prefixes refused as wholes for a session: GIT_CONFIG_KEY_0…, NPM_CONFIG_…, DYLD_… */
const SESSION_REFUSED_PREFIXES = ['GIT_CONFIG_', 'NPM_CONFIG_', 'DYLD_', 'BASH_FUNC_'];

/** Who wrote a session variable: its scope, and whether it ran sandboxed (namespace mode). */
export interface SessionEnvWriter {
  readonly scope: 'trusted' | 'policy' | 'project' | 'user';
  readonly sandboxed: boolean;
}

/** Why a hook may not set `name` for the session, or undefined when it may. */
export function refusedSessionEnvReason(name: string, writer?: SessionEnvWriter): string | undefined {
  const loader = refusedEnvReason(name);
  if (loader !== undefined) return loader;
  const upper = name.toUpperCase();
  if (SESSION_REFUSED_SET.has(upper) || SESSION_REFUSED_PREFIXES.some((p) => upper.startsWith(p)))
    return `"${name}" changes what later commands of the session run, and a hook may not set it`;
  if (
    upper === 'PATH' &&
    (writer === undefined || writer.sandboxed || (writer.scope !== 'policy' && writer.scope !== 'trusted'))
  )
    return `"PATH" decides which program every later command runs: only a policy hook that is not sandboxed may change it`;
  return undefined;
}

/**
 * Set by hookwarden for every command hook: a hook's `env` or `inheritEnv` cannot replace them (an
 * entry naming one is ignored with a warning). HOME and TMPDIR are the per-invocation scratch
 * directory; the others describe the event. PATH, LANG and TZ are defaults a hook may override:
 * they affect only its own processes (the machinery is started by absolute path, without them).
 */
export const RESERVED_VARIABLES: readonly string[] = Object.freeze([
  'HOME',
  'TMPDIR',
  'HOOK_EVENT',
  'HOOK_TOOL_NAME',
  'HOOK_SESSION_ID',
  'HOOK_PROJECT_DIR',
  'HOOK_PACK_DIR',
  'CLAUDE_PROJECT_DIR',
  'CLAUDE_PLUGIN_ROOT',
  'CLAUDE_PLUGIN_DATA',
  'CLAUDE_TOOL_INPUT',
  'CLAUDE_ENV_FILE',
]);

const RESERVED_SET = new Set(RESERVED_VARIABLES);

export function isReservedName(name: string): boolean {
  return RESERVED_SET.has(name);
}
