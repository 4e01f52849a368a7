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
const LOADER_PREFIXES: readonly string[] = Object.freeze(['LD_', 'MALLOC_']);

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
 * Who wrote a session variable. `free`: unsandboxed code of the operator (a policy or trusted hook)
 * or of the user themselves (a user's own hook in the default mode, unless the policy narrows it):
 * it may set any variable but the loader's, and PATH as it likes. Anyone else — a project's hook, a
 * tenant's, one run in a sandbox, an http server's or an evaluator's answer — sets only the
 * allow-listed names (session-env-names.ts) and PATH by the policy's directories.
 */
export interface SessionEnvWriter {
  readonly free: boolean;
  /** For messages: "a project hook", 'tenant "acme"\'s hook', "a namespace-mode hook"… */
  readonly who: string;
}

/**
 * Set by hookwarden for every command hook: a hook's `env` or `inheritEnv` cannot replace them (an
 * entry naming one is ignored with a warning). HOME and TMPDIR are the per-invocation scratch
 * directory; the others describe the event. PATH, LANG and TZ are defaults a hook may override:
 * they affect only its own processes (the machinery is started by absolute path, without them).
 */
const RESERVED_VARIABLES: readonly string[] = Object.freeze([
  'HOME',
  'TMPDIR',
  'HOOK_EVENT',
  'HOOK_TOOL_NAME',
  'HOOK_SESSION_ID',
  'HOOK_PROJECT_DIR',
  'HOOK_PACK_DIR',
  'HOOK_WRITABLE_DIR',
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
