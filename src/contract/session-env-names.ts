// Which variables a hook may set for the rest of a session (docs/security.md, "the session-env
// rule"): an allow-list. What an untrusted hook writes there — a project's, a tenant's, one run in a
// sandbox, an answer from a server or a model — reaches every later host-side command of the
// session, outside every sandbox; a deny-list of dangerous names is always one name short (a proxy,
// a new tool's config variable). So a name passes only if it is on the built-in list below, known to
// change nothing but the text later commands print, or the policy names it (`sessionEnv.allow`,
// per tenant `grants.tenants.<id>.sessionEnv`). Dependency-free.

/**
 * One class of names known to be inert: they select a language, a display or a verbosity, or turn
 * something off; none names a program, a file of code, a library path, a proxy or a server, and none
 * is read by the dynamic loader. `value`: what the value must look like (else any value).
 */
interface InertClass {
  readonly why: string;
  readonly names: readonly string[];
  /** Names with one of these prefixes (upper case). */
  readonly prefixes?: readonly string[];
  readonly value?: RegExp;
}

/** A locale name (`en_US.UTF-8`, `C.UTF-8`, `de_DE@euro`, a LANGUAGE list): never a path. */
const LOCALE_NAME = /^[A-Za-z0-9_.@:-]{0,64}$/;

/** The built-in list, by class; docs/security.md gives the same reasons. */
export const SESSION_ENV_INERT: readonly InertClass[] = Object.freeze([
  {
    why: 'locale: the language and formats of messages; a locale name, never a path (a path would load locale data from a file the hook chose)',
    names: ['LANG', 'LANGUAGE'],
    prefixes: ['LC_'],
    value: LOCALE_NAME,
  },
  {
    why: 'time zone: how times are shown (a zone name or zoneinfo file, read as data)',
    names: ['TZ'],
  },
  {
    why: 'terminal and colour: how output is drawn; TERM is a terminfo entry name, never a path (TERMINFO and TERMCAP are not listed)',
    names: ['TERM', 'COLORTERM', 'NO_COLOR', 'FORCE_COLOR', 'CLICOLOR', 'CLICOLOR_FORCE', 'COLUMNS', 'LINES'],
    value: /^[A-Za-z0-9_.+-]{0,64}$/,
  },
  {
    why: 'the mode a framework runs in, read as a word (not a settings module or file: DJANGO_SETTINGS_MODULE and FLASK_APP import code and are not listed)',
    names: ['NODE_ENV', 'RAILS_ENV', 'RACK_ENV', 'APP_ENV', 'MIX_ENV', 'CI', 'DEBIAN_FRONTEND'],
    value: /^[A-Za-z0-9_.-]{0,64}$/,
  },
  {
    why: "an interpreter's output behaviour, not its code or module path (PYTHONWARNINGS can import a module and is not listed)",
    names: ['PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', 'PYTHONIOENCODING', 'PYTHONUTF8'],
    value: /^[A-Za-z0-9_.:-]{0,64}$/,
  },
  {
    why: 'log verbosity and backtraces',
    names: ['RUST_LOG', 'RUST_BACKTRACE', 'LOG_LEVEL'],
    value: /^[A-Za-z0-9_.,=:-]{0,256}$/,
  },
  {
    why: 'telemetry switched off: each can only send less',
    names: [
      'DO_NOT_TRACK',
      'NEXT_TELEMETRY_DISABLED',
      'NUXT_TELEMETRY_DISABLED',
      'GATSBY_TELEMETRY_DISABLED',
      'ASTRO_TELEMETRY_DISABLED',
      'DOTNET_CLI_TELEMETRY_OPTOUT',
      'HOMEBREW_NO_ANALYTICS',
      'CHECKPOINT_DISABLE',
    ],
    value: /^[A-Za-z0-9]{0,8}$/,
  },
] satisfies InertClass[]);

const BY_NAME = new Map<string, InertClass>();
for (const c of SESSION_ENV_INERT) for (const n of c.names) BY_NAME.set(n, c);

function inertClass(name: string): InertClass | undefined {
  const upper = name.toUpperCase();
  return BY_NAME.get(upper) ?? SESSION_ENV_INERT.find((c) => c.prefixes?.some((p) => upper.startsWith(p)));
}

/** Whether `name` is on the built-in list (the value aside). */
export const isInertSessionName = (name: string): boolean => inertClass(name) !== undefined;

/**
 * Why the built-in list does not admit `name` with `value` (undefined: the value is not known here),
 * or undefined when it does. Names compare case-insensitively: no shell's or platform's case folding
 * can turn an admitted name into another.
 */
export function inertProblem(name: string, value: string | undefined): string | undefined {
  const c = inertClass(name);
  if (c === undefined) return `"${name}" is not on the list of variables known to be inert for a session`;
  if (c.value === undefined) return undefined;
  if (value === undefined)
    return `"${name}" is admitted only with a plain value, and this one is built from variables hookwarden cannot resolve here`;
  return c.value.test(value) ? undefined : `"${name}" is admitted only with a plain value (${c.why})`;
}
