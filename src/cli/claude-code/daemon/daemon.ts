// `hookwarden daemon run`: the per-user daemon hookwarden-client forwards an agent's hook calls to
// (docs/claude-code.md, "The daemon"): Claude Code's, Codex's, Gemini CLI's, Cursor's or Copilot
// CLI's, each answered in that agent's protocol. It is started on demand, in the background, by the
// adapter a client fell back to (start.ts), with the adapter's own command and arguments; one per
// user, adapter and configuration (the client derives the socket's name from them). It keeps the configuration
// loaded, the QuickJS workers and the spawn server warm, watches its files, and exits after an idle
// period, on `daemon stop`, SIGTERM or SIGINT, or when its socket is taken from it.
//
// Its own environment is a short allow-list of non-secret variables (start.ts): every call brings
// the caller's environment, which hooks see as they would in the caller's process, and which the
// daemon holds in memory for that call only. Logs are JSON lines on stderr (the starter points it
// at a file under the user's state directory).
import { createServer, type Server } from 'node:net';
import { formatDiagnostic } from '../../../config/diagnostics.js';
import { VERSION } from '../../../contract/version.js';
import { createExecutor, type Executor } from '../../../executor/executor.js';
import { parseFlags } from '../../adapter/run-adapter.js';
import { adapterSpecOf } from '../../adapter/specs.js';
import { buildRetired } from '../../build-hold.js';
import { cliExecutorOptions } from '../../one-dispatch.js';
import { UsageError } from '../../usage-error.js';
import { codeReads } from './code-reads.js';
import { serveConnection } from './connection.js';
import { Daemon, log } from './daemon-host.js';
import { absoluteFlags, daemonIdentity } from './identity.js';
import { peerCredProblem } from './peer-cred.js';
import { daemonDirProblem } from './places.js';

export interface DaemonFlags {
  socket: string;
  idleTimeout?: string;
  log?: string;
  /** The adapter's command and arguments (what follows the node and bin words of the hook command). */
  args: string[];
}

/** Default idle period after which a daemon exits. */
const DEFAULT_IDLE_SECONDS = 900;
function idleSeconds(flag: string | undefined): number {
  if (flag === undefined) return DEFAULT_IDLE_SECONDS;
  if (!/^\d{1,7}(\.\d+)?$/.test(flag) || !(Number(flag) > 0))
    throw new UsageError(`--idle-timeout: expected seconds above 0, got ${JSON.stringify(flag)}`);
  return Number(flag);
}

/** Listens on `socket`, created 0600 (no moment in which others may connect). */
function listen(server: Server, socket: string): Promise<void> {
  const umask = process.umask(0o177);
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => {
      server.off('error', reject);
      resolve();
    });
  }).finally(() => process.umask(umask));
}

/**
 * A socket removed or replaced (another daemon took the name): this one can no longer be reached.
 * A build swapped in (npm run build) or hookwarden removed: calls go to a daemon of the new code.
 */
function watchForRetirement(daemon: Daemon): void {
  setInterval(() => {
    if (!daemon.ownsSocket()) {
      log('info', 'the socket is no longer this daemon’s: exiting');
      daemon.stop();
    } else if (buildRetired()) {
      log('info', 'hookwarden was rebuilt or removed (dist/ names another build): exiting');
      daemon.stop();
    }
  }, 5_000).unref();
}

export async function runDaemon(flags: DaemonFlags): Promise<number> {
  const fail = (message: string) => {
    log('error', message);
    return 1;
  };
  const idleMs = idleSeconds(flags.idleTimeout) * 1000;
  const cred = peerCredProblem();
  if (cred !== undefined) return fail(`cannot check who connects (${cred}): not starting`);
  const { prepareSocketPath } = await import('../../../server/unix-socket.js');
  const { dirname } = await import('node:path');
  const dir = daemonDirProblem(dirname(flags.socket));
  if (dir !== undefined) return fail(`--socket: ${dir}`);
  const [command, ...adapterArgs] = flags.args;
  const spec = adapterSpecOf(command ?? '');
  if (spec === undefined)
    return fail(
      `expected an adapter (claude-code, codex, gemini, cursor, copilot) after --, got ${JSON.stringify(command ?? '')}`,
    );
  const parsed = parseFlags(spec, adapterArgs, process.env, process.cwd());
  if (parsed instanceof UsageError) return fail(parsed.message);
  const identity = daemonIdentity(spec.command, parsed, process.env, process.cwd());
  const own = absoluteFlags(parsed, process.cwd());
  let executor: Executor;
  let reloaded = () => {};
  try {
    executor = await createExecutor({
      ...cliExecutorOptions(own),
      prestartJsWorkers: true,
      watch: true,
      onWarning: (d) => log('warn', formatDiagnostic(d)),
      onReload: (r) => {
        if (r.ok) reloaded();
        log(r.ok ? 'info' : 'warn', r.ok ? 'configuration reloaded' : 'reload refused', {
          generation: r.generation,
          ...(r.ok ? {} : { reason: r.reason }),
        });
      },
    });
  } catch (err) {
    return fail(`the configuration does not load: ${(err as Error).message}`);
  }
  let path: string;
  try {
    path = await prepareSocketPath(flags.socket);
  } catch (err) {
    await executor.close();
    return fail(`--socket ${(err as Error).message}`);
  }
  const server = createServer();
  const daemon = new Daemon(
    executor,
    server,
    { spec, flags: own, identity, args: flags.args },
    path,
    idleMs,
    flags.log,
    codeReads(),
  );
  server.on('connection', (socket) => serveConnection(socket, daemon));
  reloaded = () => daemon.writeManifest();
  try {
    await listen(server, path);
  } catch (err) {
    await executor.close();
    return fail(`--socket ${path}: cannot listen (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
  daemon.listening();
  process.on('SIGTERM', () => daemon.stop());
  process.on('SIGINT', () => daemon.stop());
  watchForRetirement(daemon);
  log('info', 'listening', { socket: path, version: VERSION, args: flags.args, root: own.root });
  return new Promise<number>(() => {}); // runs until stop() exits the process
}
