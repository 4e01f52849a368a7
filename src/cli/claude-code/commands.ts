// `hookwarden claude-code` and `hookwarden claude-code install`: their flags and the help that
// teaches them. The adapter itself is started by main.ts without commander (flags.ts); commander
// shows its help and runs `install`.
import type { Command } from 'commander';
import type { InstallFlags } from '../adapter/install-types.js';
import { addUninstallCommand, followLinkOption } from '../adapter/uninstall-command.js';
import { addDaemonCommands } from './daemon/daemon-command.js';
import { ADAPTER_FLAGS, commanderFlag } from './flags.js';

const ADAPTER_HELP = `
What it answers (Claude Code's hooks reference, "Exit code output" and "JSON output"):
  a block         exit 2, the reason on stderr (what Claude or the user is shown), and the same
                  decision as JSON on stdout: PreToolUse/PreModelSwitch permissionDecision "deny";
                  UserPromptSubmit, PostToolBatch, PreCompact, ConfigChange… decision "block"
  PermissionRequest  exit 0, {"hookSpecificOutput": {"decision": {"behavior": "allow"|"deny", …}}}
  allow, ask, defer  exit 0, PreToolUse permissionDecision (+ updatedInput, additionalContext)
  keep working    Stop/SubagentStop: exit 0, {"decision": "block", "reason": …}; TeammateIdle: exit 2
  context, env    additionalContext where the event takes it; continue, stopReason, systemMessage,
                  suppressOutput on every event; the session-env lines the hooks wrote that
                  the session-env rule keeps, appended to $CLAUDE_ENV_FILE as written (bash);
                  each refused line, and each answer field ignored, named in systemMessage
  nothing to say  exit 0, empty stdout
It fails closed: input it cannot read (not JSON, no or unknown hook_event_name, a field of the wrong
type, over 8 MiB or 64 levels deep), bad flags, a config that does not load or that routes through
this adapter itself, an internal error, an interrupt or --timeout before a verdict: exit 2 with one
line on stderr where the event can block (and when it is unknown), a JSON deny on PermissionRequest,
exit 1 (a non-blocking error) on the other events. Never a stack trace.
Hooks run with $CLAUDE_PROJECT_DIR (else the current directory) as their sandbox root.
\`claude-code install\` writes this command behind hookwarden-client where it was built: the client
forwards each call to a per-user daemon that answers exactly as this adapter would here, and runs
this adapter itself on any doubt (\`hookwarden claude-code daemon --help\`).
With --socket <path> (or $HOOKWARDEN_SOCKET) it forwards the event to a running
\`hookwarden serve --socket <path>\` that runs the same --config files and root (a warm dispatcher),
and dispatches here itself when the socket is absent, stale, not this user's, or the daemon runs
another configuration; stderr says why (docs/claude-code.md, "The daemon").

Exit status: 0 answered (JSON on stdout, if any), 2 block (reason on stderr), 1 non-blocking error.

Examples:
  $ echo '{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}' \\
      | hookwarden claude-code --config .claude/settings.hookwarden.json
  $ hookwarden claude-code install .claude/settings.json --write
  $ hookwarden serve -c .claude/settings.hookwarden.json --root "$PWD" --socket "$XDG_RUNTIME_DIR/hw.sock" &
  $ export HOOKWARDEN_SOCKET="$XDG_RUNTIME_DIR/hw.sock"    # before starting claude
In a settings file (what \`install\` writes):
  {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "timeout": 67,
    "command": "/usr/bin/node /opt/hookwarden/bin/hookwarden claude-code --timeout 64 --config /work/proj/.claude/settings.hookwarden.json"}]}]}}`;

const INSTALL_HELP = `
The handlers the adapter runs (command hooks) move to a copy that Claude Code does not read; each
event that had them gets ONE adapter hook instead:
  matcher   one that matches whenever one of the moved groups' matchers does (the adapter then
            applies each group's own); no matcher if one of them matches everything
  timeout   covers the moved hooks: their timeouts summed where hookwarden runs them one after the
            other (tool events, UserPromptSubmit, Stop…), the longest where it runs them at once
            (SessionStart, Notification…), plus 2 s for the adapter; the adapter itself answers 3 s
            before Claude Code would give up (--timeout), so a slow chain blocks, never slips through
  command   hookwarden-client (where \`npm run build\` could build it) followed by the absolute paths
            of this node and this hookwarden, each word quoted for the shell: the client forwards
            each call to a per-user daemon started on the first call, and runs the Node words
            itself on any doubt (\`hookwarden daemon --help\`); without the client (no C compiler
            at build, --no-client), the Node words alone, as \`doctor\` says; then a guard: if
            the command cannot run at all (hookwarden moved or removed), the event's fail-closed
            answer (exit 2 where it can block)
Left with Claude Code, as they were: prompt, agent, http and mcp_tool hooks, async hooks (Claude
Code runs them without holding the tool call; the adapter process would wait for them), WorktreeCreate hooks (they answer with a path on
stdout), events hookwarden does not know. Every path is its real one; a symbolic link on the way is
followed only when it is your dotfile link (in ~ or ~/.config), root's, or named with --follow-link.
Run again, install is complete and idempotent: hooks added to <file> since (as Claude Code's /hooks
menu adds them) move to the copy, the routed ones stay, every event of the copy gets its adapter
hook, and every command gets this hookwarden's paths (after an upgrade or a move); nothing changed,
nothing is written. An adapter hook never runs the adapter again (the adapter refuses such a
config). \`claude-code uninstall <file>\` undoes it all.

Before (.claude/settings.json):
  {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": ".claude/hooks/guard.sh", "timeout": 30}]}]}}
After --write (.claude/settings.json; the hooks above are now in .claude/settings.hookwarden.json):
  {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "timeout": 36,
    "command": "/opt/hookwarden/dist/native/hookwarden-client /usr/bin/node /opt/hookwarden/bin/hookwarden claude-code --timeout 33 --config /work/proj/.claude/settings.hookwarden.json"}]}]}}

Exit status: 0 printed (and written, with --write), 1 error (nothing written).

Examples:
  $ hookwarden claude-code install .claude/settings.json
  $ hookwarden claude-code install ~/.claude/settings.json --write
  $ hookwarden claude-code install .claude/settings.json --socket "$XDG_RUNTIME_DIR/hookwarden.sock" --write
  $ hookwarden claude-code install plugins/guard/hooks/hooks.json --hooks-file plugins/guard/sandboxed.json --write`;

function registerInstall(cc: Command, setExitCode: (code: number) => void): void {
  cc.command('install')
    .description(
      'route the hooks of a Claude Code settings.json or plugin hooks.json through the adapter: prints the settings block, --write puts it in place',
    )
    .argument(
      '<file>',
      "a Claude Code hooks file: settings.json, settings.local.json, a plugin's hooks/hooks.json",
    )
    .option(
      '--write',
      'write the hooks copy and put the block in <file> (the file as it was is kept as <file>.bak); every file is created new (O_EXCL|O_NOFOLLOW), never through a symbolic link: a link as <file>, its folder or a file it writes is refused',
    )
    .option(
      '--socket <path>',
      'write the adapter command with --socket <path>: it forwards to a `hookwarden serve --socket <path>` with the same config when one runs (made absolute; $VARS are not expanded later)',
    )
    .option(
      '--no-client',
      'write the Node adapter command even where hookwarden-client was built (no daemon; every call starts Node)',
    )
    .option(
      '--hooks-file <path>',
      'where the hooks copy goes (default: <file name>.hookwarden.json next to <file>, or at the root of a plugin)',
    )
    .addOption(followLinkOption())
    .addHelpText('after', INSTALL_HELP)
    .action(async (file: string, flags: InstallFlags) => {
      const { runClaudeCodeInstall } = await import('./install.js');
      setExitCode(await runClaudeCodeInstall(file, flags));
    });
}

export function addClaudeCodeCommands(program: Command, setExitCode: (code: number) => void): void {
  const cc = program
    .command('claude-code')
    .description(
      "Claude Code's hook protocol: run as a Claude Code command hook, read one hook input on stdin, run the matching hooks under hookwarden, answer as Claude Code expects",
    );
  for (const f of ADAPTER_FLAGS) {
    if (f.multiple === true)
      cc.option(commanderFlag(f), f.description, (v: string, prev: string[] = []) => [...prev, v]);
    else cc.option(commanderFlag(f), f.description);
  }
  cc.addHelpText('after', ADAPTER_HELP);
  // main.ts starts the adapter itself (without commander); this runs it when commander got there first.
  cc.action(async () => {
    const { runClaudeCodeAdapter } = await import('./adapter.js');
    setExitCode(await runClaudeCodeAdapter(process.argv.slice(3)));
  });

  addDaemonCommands(cc, setExitCode, 'claude-code daemon');

  registerInstall(cc, setExitCode);
  addUninstallCommand(
    cc,
    'claude-code',
    'Claude Code',
    '.claude/settings.json',
    async () => (await import('./install.js')).claudeCodeInstaller(),
    setExitCode,
  );
}
