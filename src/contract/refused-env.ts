// Which variable names a hook's `env` and `inheritEnv` may not carry (DESIGN §8.5). Dependency-free:
// the config loader refuses them at load, and the subprocess runner checks again at spawn.
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
 * What a hook may not set for the rest of a session (CLAUDE_ENV_FILE, `sessionEnv`) unless the
 * policy consents: every variable that makes a later host-side command run code nobody reviewed, or
 * run another program than the one named — shell start-up files and hooks, interpreter start-up code
 * and module paths, the programs tools start for you (editors, pagers, ssh, compilers), the config
 * files and toolchains they read — besides the loader and libc variables refused everywhere. PATH
 * decides which program every later command is: see the session-env rule (session-env.ts).
 */
export const SESSION_ENV_REFUSED: readonly string[] = Object.freeze([
  // Shells: start-up files, hooks, options, what a word or a command name means.
  ...['BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'PS0', 'PS1', 'PS2', 'PS3', 'PS4', 'SHELLOPTS', 'BASHOPTS'],
  ...['IFS', 'CDPATH', 'GLOBIGNORE', 'EXECIGNORE', 'BASH_LOADABLES_PATH', 'BASH_XTRACEFD', 'FPATH'],
  ...['ZDOTDIR', 'MODULE_PATH', 'SHELL', 'HOME', 'XDG_CONFIG_HOME', 'XDG_CONFIG_DIRS', 'CONFIG_SITE'],
  // Interpreters: code run at start-up, where modules are looked up, which runtime runs.
  ...['NODE_OPTIONS', 'NODE_PATH', 'NODE_EXTRA_CA_CERTS', 'ELECTRON_RUN_AS_NODE', 'BUN_OPTIONS'],
  ...['PYTHONSTARTUP', 'PYTHONPATH', 'PYTHONHOME', 'PYTHONUSERBASE', 'PYTHONBREAKPOINT', 'PYTHONPLATLIBDIR'],
  ...['PERL5OPT', 'PERL5LIB', 'PERLLIB', 'PERL5DB', 'RUBYOPT', 'RUBYLIB', 'GEM_HOME', 'GEM_PATH'],
  ...['BUNDLE_GEMFILE', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'CLASSPATH', 'JAVA_HOME'],
  ...['MAVEN_OPTS', 'GRADLE_OPTS', 'GRADLE_USER_HOME', 'SBT_OPTS', 'ANT_OPTS', 'LUA_PATH', 'LUA_CPATH'],
  ...['R_PROFILE', 'R_PROFILE_USER', 'R_ENVIRON', 'R_ENVIRON_USER', 'R_LIBS', 'R_LIBS_USER', 'PHPRC'],
  ...['PHP_INI_SCAN_DIR', 'TCLLIBPATH', 'ERL_FLAGS', 'ERL_AFLAGS', 'ERL_ZFLAGS', 'JULIA_LOAD_PATH'],
  ...['JULIA_DEPOT_PATH', 'DOTNET_STARTUP_HOOKS', 'DOTNET_ADDITIONAL_DEPS', 'DOTNET_ROOT'],
  // Build tools and compilers: which compiler, linker or flags a build runs with.
  ...['CC', 'CXX', 'CPP', 'LD', 'CFLAGS', 'CXXFLAGS', 'CPPFLAGS', 'LDFLAGS', 'LIBRARY_PATH', 'CPATH'],
  ...['MAKEFLAGS', 'MAKEFILES', 'GOFLAGS', 'GOENV', 'GOROOT', 'GOTOOLCHAIN', 'RUSTC', 'RUSTC_WRAPPER'],
  ...['RUSTDOC', 'RUSTFLAGS', 'RUSTUP_HOME', 'RUSTUP_TOOLCHAIN', 'TAR_OPTIONS'],
  // Where packages come from and whom downloads trust (what a later install runs).
  ...['GOPROXY', 'GOSUMDB', 'GONOSUMDB', 'GONOSUMCHECK', 'GOINSECURE', 'GOPRIVATE', 'PIP_CONFIG_FILE'],
  ...['PIP_INDEX_URL', 'PIP_EXTRA_INDEX_URL', 'PIP_FIND_LINKS', 'PIP_TRUSTED_HOST', 'UV_INDEX_URL'],
  ...['UV_EXTRA_INDEX_URL', 'UV_INDEX', 'UV_DEFAULT_INDEX', 'UV_CONFIG_FILE', 'UV_PYTHON'],
  ...['YARN_RC_FILENAME', 'YARN_YARN_PATH', 'YARN_NPM_REGISTRY_SERVER', 'YARN_REGISTRY'],
  ...['BUN_CONFIG_REGISTRY', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'CURL_CA_BUNDLE', 'REQUESTS_CA_BUNDLE'],
  ...['OPENSSL_CONF', 'OPENSSL_ENGINES', 'OPENSSL_MODULES'],
  // Programs tools start for you, and the config that names them.
  ...['GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_EXEC_PATH', 'GIT_ASKPASS', 'GIT_EDITOR', 'GIT_PAGER'],
  ...['GIT_SEQUENCE_EDITOR', 'GIT_EXTERNAL_DIFF', 'GIT_PROXY_COMMAND', 'GIT_TEMPLATE_DIR', 'GIT_DIR'],
  ...['GIT_WORK_TREE', 'GIT_COMMON_DIR', 'SSH_ASKPASS', 'SSH_ASKPASS_REQUIRE', 'SUDO_ASKPASS'],
  ...['SUDO_EDITOR', 'EDITOR', 'VISUAL', 'FCEDIT', 'PAGER', 'MANPAGER', 'LESS', 'LESSOPEN', 'LESSCLOSE'],
  ...['LESSKEYIN', 'BROWSER', 'SYSTEMD_PAGER', 'SYSTEMD_EDITOR', 'GH_PAGER', 'GH_EDITOR', 'GH_BROWSER'],
  ...['PSQL_PAGER', 'SVN_EDITOR', 'SVN_SSH', 'CVS_RSH', 'RSYNC_RSH', 'RSYNC_CONNECT_PROG', 'HGRCPATH'],
  ...['VIMINIT', 'EXINIT', 'MYVIMRC', 'VIMRUNTIME', 'EMACSLOADPATH', 'DOCKER_HOST', 'DOCKER_CONFIG'],
  ...['KUBECONFIG', 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE', 'CLOUDSDK_CONFIG'],
  ...['GOOGLE_APPLICATION_CREDENTIALS'],
]);
const SESSION_REFUSED_SET = new Set(SESSION_ENV_REFUSED.map((n) => n.toUpperCase()));
/** Prefixes refused as wholes for a session (upper case; names compare case-insensitively). */
export const SESSION_ENV_REFUSED_PREFIXES: readonly string[] = Object.freeze([
  'GIT_CONFIG', // GIT_CONFIG, GIT_CONFIG_GLOBAL, _SYSTEM, _PARAMETERS, _COUNT, _KEY_n, _VALUE_n
  'NPM_CONFIG_',
  'DYLD_',
  'BASH_FUNC_',
  'CGO_',
  'CARGO_',
  'CORECLR_',
  'COR_',
  'LUA_INIT',
]);
const SESSION_REFUSED_PREFIXES = SESSION_ENV_REFUSED_PREFIXES;

/** Who wrote a session variable: its scope, and whether it ran sandboxed (namespace mode). */
export interface SessionEnvWriter {
  readonly scope: 'trusted' | 'policy' | 'project' | 'user';
  readonly sandboxed: boolean;
}

/**
 * Why a hook may not set `name` for the session unless the policy consents (`sessionEnv.allow`), or
 * undefined. Not the loader's variables (refusedEnvReason: never), not PATH (sessionPathFree).
 */
export function sessionEnvClassReason(name: string): string | undefined {
  const upper = name.toUpperCase();
  if (SESSION_REFUSED_SET.has(upper) || SESSION_REFUSED_PREFIXES.some((p) => upper.startsWith(p)))
    return `"${name}" changes what later commands of the session run`;
  return undefined;
}

/** Whether `writer` may set PATH to anything: a policy (or trusted) hook that is not sandboxed. */
export const sessionPathFree = (writer: SessionEnvWriter): boolean =>
  !writer.sandboxed && (writer.scope === 'policy' || writer.scope === 'trusted');

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
