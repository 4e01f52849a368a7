// The adapters' flags, declared once: commander shows them in `hookwarden claude-code --help` (and
// each agent's), and the adapter itself parses them with node:util's parseArgs (it runs once per
// event the agent sends, and commander's ~10 ms of loading is a sixth of its budget). An agent's
// adapter may take a few more (its spec's extraFlags: `--event`, `--explicit-allow`). Dependency-free.
import { parseArgs } from 'node:util';

export interface AdapterFlags {
  config?: string[];
  userConfig?: string[];
  policy?: string[];
  root?: string;
  timeout?: string;
  strict?: boolean;
  audit?: string;
  auditKey?: string;
  packCache?: string;
  socket?: string;
  /** Agents' adapters: the event, when the agent's input does not name it (Copilot CLI's). */
  event?: string;
  /** Cursor's adapter: answer a passthrough with an explicit allow (its failClosed hooks). */
  explicitAllow?: boolean;
}

export interface FlagSpec {
  /** The long name (`user-config`); its camelCase is the AdapterFlags key. */
  readonly name: string;
  readonly short?: string;
  /** The value placeholder (`<file>`); none for a boolean flag. */
  readonly value?: string;
  readonly multiple?: boolean;
  readonly description: string;
}

export const ADAPTER_FLAGS: readonly FlagSpec[] = [
  {
    name: 'config',
    short: 'c',
    value: '<file>',
    multiple: true,
    description:
      "hook config (the agent's own hooks file: a settings.json, a plugin or agent hooks.json…, or a hookwarden hooks.json), project scope; repeatable",
  },
  {
    name: 'user-config',
    value: '<file>',
    multiple: true,
    description: 'hook config loaded as user scope; repeatable',
  },
  {
    name: 'policy',
    short: 'p',
    value: '<file>',
    multiple: true,
    description: 'policy file: its hooks run first and cannot be replaced; repeatable',
  },
  {
    name: 'root',
    value: '<dir>',
    description:
      'sandbox root, the working directory of command hooks (default: the project directory the agent sets, $CLAUDE_PROJECT_DIR, $GEMINI_PROJECT_DIR or $CURSOR_PROJECT_DIR, else cwd)',
  },
  {
    name: 'timeout',
    value: '<seconds>',
    description:
      'answer within this time: then running hooks are killed and the answer is the interrupted one (a block where the event can block); set it under the timeout the agent gives the hook',
  },
  {
    name: 'strict',
    description: 'a config entry that would be skipped (invalid, unsupported…) fails closed',
  },
  {
    name: 'audit',
    value: '<file.jsonl>',
    description: 'append one JSON line per executed hook (metadata only)',
  },
  {
    name: 'audit-key',
    value: '<file>',
    description: 'key the --audit file (HMAC-SHA-256; from `audit keygen`)',
  },
  {
    name: 'pack-cache',
    value: '<dir>',
    description: 'cache of packs pinned by url (default ~/.cache/hookwarden/packs)',
  },
  {
    name: 'socket',
    value: '<path>',
    description:
      'forward to `hookwarden serve --socket <path>` when it runs this same config (default: $HOOKWARDEN_SOCKET); else dispatch here',
  },
];

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Commander's flag syntax for one flag: `-c, --config <file>`. */
export const commanderFlag = (f: FlagSpec): string =>
  `${f.short === undefined ? '' : `-${f.short}, `}--${f.name}${f.value === undefined ? '' : ` ${f.value}`}`;

/** Parses the adapter's arguments (after `claude-code`); throws a TypeError naming a bad one. */
export function parseAdapterArgs(args: readonly string[], extra: readonly FlagSpec[] = []): AdapterFlags {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const f of [...ADAPTER_FLAGS, ...extra]) {
    options[f.name] = {
      type: f.value === undefined ? 'boolean' : 'string',
      ...(f.short === undefined ? {} : { short: f.short }),
      ...(f.multiple === true ? { multiple: true } : {}),
    };
  }
  const { values } = parseArgs({ args: [...args], options, strict: true, allowPositionals: false });
  const flags: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) flags[camel(k)] = v;
  return flags as AdapterFlags;
}

/** `--timeout` in milliseconds (undefined when not given); throws a TypeError when it is not a number of seconds. */
export function timeoutMs(flags: AdapterFlags): number | undefined {
  if (flags.timeout === undefined) return undefined;
  const s = Number(flags.timeout);
  if (!/^\d+(\.\d+)?$/.test(flags.timeout) || !(s > 0) || s > 86_400)
    throw new TypeError(
      `--timeout: expected seconds between 0 and 86400, got ${JSON.stringify(flags.timeout)}`,
    );
  return Math.round(s * 1000);
}
