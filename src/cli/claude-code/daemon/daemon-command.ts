// `hookwarden daemon status|stop|run` (also as `hookwarden claude-code daemon …`, its first name):
// the per-user daemons hookwarden-client forwards every agent's hook calls to.
import type { Command } from 'commander';

const HELP = `
When \`<agent> install\` found hookwarden-client built (npm run build, with a C compiler), the hook
command it writes is the client: it sends each call to a daemon that keeps the configuration loaded
and the sandboxes warm, and runs the Node adapter as its child on any doubt (no daemon, another
configuration, a file changed since the daemon loaded it, a socket of another user, a protocol error,
a daemon that dies or does not answer in time); when even that cannot answer, the client answers the
agent's fail-closed answer itself. The first call of a configuration starts its daemon in the
background; it exits after 15 minutes without a call ($HOOKWARDEN_DAEMON_IDLE_SECONDS when it
starts), on \`daemon stop\`, when hookwarden is rebuilt, upgraded or removed, or when nothing routes
to it any more (\`<agent> uninstall\`). One daemon per user, agent and configuration. Sockets:
$XDG_RUNTIME_DIR/hookwarden (else /tmp/hookwarden-<uid>), mode 0700. Logs:
$XDG_STATE_HOME/hookwarden/daemon (else ~/.local/state/…). See docs/claude-code.md.`;

/** Adds `daemon status|stop|run` under `parent`; `name` is how help names it (`daemon`, `claude-code daemon`). */
export function addDaemonCommands(parent: Command, setExitCode: (code: number) => void, name: string): void {
  const daemon = parent
    .command('daemon')
    .description(
      "the per-user daemons hookwarden-client forwards every agent's hook calls to: started on demand, exit when idle",
    )
    .addHelpText('after', `${HELP}\n\nExamples:\n  $ hookwarden ${name} status\n  $ hookwarden ${name} stop`);
  daemon
    .command('status')
    .description(
      "list this user's daemons: the agent and configuration each runs, its calls, its socket and log",
    )
    .option('--json', 'print the reports as JSON')
    .action(async (flags: { json?: boolean }) => {
      const { runDaemonStatus } = await import('./control.js');
      setExitCode(await runDaemonStatus(flags));
    });
  daemon
    .command('stop')
    .description('stop every daemon of this user (the next hook call starts one again)')
    .option('--json', 'print the reports as JSON')
    .action(async (flags: { json?: boolean }) => {
      const { runDaemonStop } = await import('./control.js');
      setExitCode(await runDaemonStop(flags));
    });
  daemon
    .command('run')
    .description('run a daemon in the foreground (the adapter starts it on demand; for debugging)')
    .requiredOption('--socket <path>', "its socket, in the user's daemon directory")
    .option('--idle-timeout <seconds>', 'exit after this long without a call (default 900)')
    .option('--log <file>', 'the log file its stderr goes to (shown by status)')
    .argument('<args...>', "the adapter's command and arguments, after --: -- codex --config <file>…")
    .action(async (args: string[], flags: { socket: string; idleTimeout?: string; log?: string }) => {
      const { runDaemon } = await import('./daemon.js');
      const { ADAPTER_COMMANDS } = await import('../adapter-call.js');
      // `claude-code daemon run -- --config …`: the adapter is the one the command is under.
      const command = ADAPTER_COMMANDS.includes(args[0] ?? '') ? [] : ['claude-code'];
      setExitCode(await runDaemon({ ...flags, args: [...command, ...args] }));
    });
}
