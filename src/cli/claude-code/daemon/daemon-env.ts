// The environment names of the client ↔ adapter ↔ daemon hand-over. Dependency-free but for the
// secret filter: the adapter's fast path loads it.
import { secretValueKind } from '../../../contract/secret-names.js';

/** Set by hookwarden-client on the adapter it falls back to: why it did (for the debug log). */
export const CLIENT_FALLBACK_ENV = 'HOOKWARDEN_CLIENT_FALLBACK';
/** Set with it: the socket the client looked for. */
export const CLIENT_SOCKET_ENV = 'HOOKWARDEN_CLIENT_SOCKET';
/** Set to 1 with them when no daemon answered there: the adapter starts one after answering. */
export const CLIENT_START_ENV = 'HOOKWARDEN_CLIENT_START';
/** The idle period of a daemon started on demand, in seconds (default daemon.ts DEFAULT_IDLE_SECONDS). */
export const DAEMON_IDLE_ENV = 'HOOKWARDEN_DAEMON_IDLE_SECONDS';

/** Environment variables of hookwarden's own machinery: a daemon runs with the ones it was started with. */
export const MACHINERY_ENV = [
  'HOOKWARDEN_BWRAP',
  'HOOKWARDEN_SPAWN_SERVER',
  'HOOKWARDEN_CONTAINMENT',
  // Claude Code's config directory names plugins' data folders (CLAUDE_PLUGIN_DATA).
  'CLAUDE_CONFIG_DIR',
] as const;

/**
 * The daemon's own environment: where things are (home, runtime, state and cache directories, the
 * locale, PATH), the project it serves and hookwarden's machinery settings. Never the rest of the
 * caller's: a hook running as the same user could read it in /proc/<daemon>/environ. A value that
 * looks like a credential is left out too.
 */
const DAEMON_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'XDG_RUNTIME_DIR',
  'XDG_STATE_HOME',
  'XDG_CACHE_HOME',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  // The project directories the agents set (the sandbox root when no --root is given).
  'CLAUDE_PROJECT_DIR',
  'GEMINI_PROJECT_DIR',
  'CURSOR_PROJECT_DIR',
  ...MACHINERY_ENV,
];

export function daemonEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const name of DAEMON_ENV) {
    const value = env[name];
    if (value !== undefined && !value.includes('\0') && secretValueKind(value) === undefined)
      out[name] = value;
  }
  return out;
}
