// The hook command `<agent> install` writes, for every agent: hookwarden-client where it was built
// (it forwards each call to the daemon and runs the Node words as its child on any doubt), then the
// real paths of this node and this hookwarden and the adapter's words, each quoted for the shell;
// then a guard for the one case neither can answer: the command itself cannot run (the installation
// was moved or removed, node is gone). The guard gives the adapter's own fail-closed answer for the
// event, written into the line at install:
//
//   <client> <node> <bin> codex --timeout 64 --config <copy> || { s=$?; [ $s -lt 126 ] && exit $s;
//     printf '%s\n' '<the failure line>' >&2; exit 2; }
//
// An exit below 126 is the answer (0, 1, 2: the client answers for a Node adapter that could not);
// 126 and 127 (the shell could not run the command) or a signal get the event's fail-closed answer.
// Without the client the Node words come first, and node exits 1 for a bin/hookwarden that is gone:
// there the guard also answers when bin/hookwarden is not there (`[ -f <bin> ] && …`).
// Dependency-free but for the specs.
import { accessSync, constants, existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { peerCredProblem } from '../claude-code/daemon/peer-cred.js';
import { shellQuote } from '../claude-code/routing.js';
import { adapterSpecOf } from './specs.js';

export interface CommandFlags {
  /** The adapter forwards to a `serve --socket` (its words hold --socket): no daemon of its own. */
  readonly forwards?: boolean;
  /** false (--no-client): the Node adapter command even where hookwarden-client was built. */
  readonly client?: boolean;
}

export interface AdapterCommand {
  /** The words before the adapter's own flags: [client], node, bin, the adapter. */
  readonly words: string[];
  /** The real path of bin/hookwarden (the guard checks it is still there). */
  readonly bin: string;
  /** Whether the words start with hookwarden-client. */
  readonly client: boolean;
  /** Which command, and why not the client when it is not. */
  readonly note: string;
  readonly warning?: string;
}

/** What the build said about the client (scripts/build-client.ts), if it could not build it. */
function buildProblem(native: string): string | undefined {
  try {
    const report = JSON.parse(readFileSync(join(native, 'client-build.json'), 'utf8')) as {
      problems?: Record<string, string>;
    };
    return report.problems?.client;
  } catch {
    return undefined;
  }
}

/** The installation's hookwarden-client: through its `dist` (never a build folder it points to). */
function clientOf(bin: string): { path: string } | { why: string } {
  const native = join(dirname(dirname(bin)), 'dist', 'native');
  const path = join(native, 'hookwarden-client');
  if (!existsSync(path))
    return { why: buildProblem(native) ?? `${path} was not built (npm run build needs a C compiler)` };
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return { why: `${path} is not executable` };
  }
  const peers = peerCredProblem();
  return peers === undefined ? { path } : { why: `the daemon could not check its peers: ${peers}` };
}

/**
 * The adapter as the agent should start it: this node and this hookwarden by their real paths, behind
 * hookwarden-client where it was built.
 */
export function adapterCommand(command: string, flags: CommandFlags): AdapterCommand {
  const bin = realpathSync(process.argv[1] ?? '');
  const warning = /[\\/]_npx[\\/]/.test(bin)
    ? `warning: hookwarden runs from npx's cache (${bin}), which npx may clear: install it (npm install -g hookwarden) and run install again`
    : undefined;
  const node = [realpathSync(process.execPath), bin, command];
  const client =
    flags.client === false
      ? { why: '--no-client' }
      : flags.forwards === true
        ? { why: '--socket forwards to serve' }
        : clientOf(bin);
  const words = 'path' in client ? [client.path, ...node] : node;
  const note =
    'path' in client
      ? 'the hook command is hookwarden-client: each call goes to the daemon (started on the first call), or runs the Node adapter on any doubt'
      : `the hook command is the Node adapter (${client.why}): every call starts Node`;
  return { words, bin, client: 'path' in client, note, ...(warning === undefined ? {} : { warning }) };
}

/** `text` (one or more lines) printed by the shell exactly: printf '%s\n' per line, quoted. */
const printed = (text: string, stream: '' | ' >&2') =>
  text === ''
    ? []
    : text
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => `printf '%s\\n' ${shellQuote(line)}${stream}`);

/** The command line of one event's adapter hook: the words, and the guard with the event's fail-closed answer. */
export function guardedLine(
  command: AdapterCommand,
  adapter: string,
  event: string,
  words: readonly string[],
): string {
  const spec = adapterSpecOf(adapter);
  if (spec === undefined) throw new Error(`no adapter ${adapter}`);
  const a = spec.failure(
    event,
    `cannot start (${command.bin} is gone, or the command could not run): reinstall hookwarden, or run \`hookwarden ${adapter} install\` again`,
  );
  const fail = [...printed(a.stderr, ' >&2'), ...printed(a.stdout, ''), `exit ${a.exitCode}`];
  const there = command.client ? '' : `[ -f ${shellQuote(command.bin)} ] && `;
  return `${words.map(shellQuote).join(' ')} || { s=$?; ${there}[ $s -lt 126 ] && exit $s; ${fail.join('; ')}; }`;
}
