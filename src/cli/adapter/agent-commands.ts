// `hookwarden codex|gemini|cursor|copilot` and their `install`: the flags and the help that teaches
// them. The adapters themselves are started by main.ts without commander (run-adapter.ts); commander
// shows their help and runs `install`.
import type { Command } from 'commander';
import type { AgentName } from '../../contract/agents/protocol.js';
import { ADAPTER_FLAGS, commanderFlag, type FlagSpec } from '../claude-code/flags.js';
import { agentAdapter } from './agent-spec.js';
import type { InstallFlags } from './install-types.js';
import { addUninstallCommand, followLinkOption } from './uninstall-command.js';

interface AgentHelp {
  readonly what: string;
  readonly answers: string;
  readonly file: string;
  readonly example: string;
  readonly before: string;
}

const HELP: Readonly<Record<AgentName, AgentHelp>> = {
  codex: {
    what: "OpenAI Codex CLI's hook protocol (Claude Code's events and input; stricter answers)",
    answers: `  a block         PreToolUse, PermissionRequest, UserPromptSubmit: exit 2, the reason on stderr
  ask             PreToolUse cannot ask in Codex: answered as a block (the stricter reading)
  rewrite         PreToolUse: {"hookSpecificOutput": {"permissionDecision": "allow", "updatedInput": …}}
  allow           PermissionRequest: {"hookSpecificOutput": {"decision": {"behavior": "allow"}}}
  keep working    Stop/SubagentStop: {"decision": "block", "reason": …}
  context         hookSpecificOutput.additionalContext where Codex takes it; only fields of each
                  event's schema are written (Codex fails a hook over any other, and runs the tool)`,
    file: '.codex/hooks.json (user: ~/.codex/hooks.json)',
    example: `{"session_id":"s1","turn_id":"t1","hook_event_name":"PreToolUse","cwd":"/work","model":"gpt-5","permission_mode":"default","transcript_path":null,"tool_name":"Bash","tool_use_id":"c1","tool_input":{"command":"rm -rf /"}}`,
    before: `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": ".codex/hooks/guard.sh", "timeout": 30}]}]}}`,
  },
  gemini: {
    what: "Gemini CLI's hook protocol (settings.json hooks: BeforeTool, AfterTool, BeforeAgent, …)",
    answers: `  a block         exit 2, the reason on stderr, and {"decision": "deny", "reason": …} on stdout
                  (BeforeTool, BeforeAgent, BeforeModel; AfterTool: the tool's result is hidden)
  ask, allow      BeforeTool: {"decision": "ask"|"allow"}
  rewrite         BeforeTool: {"hookSpecificOutput": {"tool_input": …}} (Gemini merges it over the
                  call's arguments: a rewrite that removes an argument is answered as a block)
  keep working    AfterAgent: {"decision": "deny", "reason": …} (Gemini retries the turn)
  context         hookSpecificOutput.additionalContext (AfterTool, BeforeAgent, SessionStart)`,
    file: '.gemini/settings.json (user: ~/.gemini/settings.json)',
    example: `{"session_id":"s1","transcript_path":"","cwd":"/work","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"}}`,
    before: `{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5000}]}]}}`,
  },
  cursor: {
    what: "Cursor's hook protocol (.cursor/hooks.json: preToolUse, beforeShellExecution, beforeReadFile, …)",
    answers: `  a block         exit 0, {"permission": "deny", "user_message": …, "agent_message": …} (the gates:
                  preToolUse, beforeShellExecution, beforeMCPExecution, beforeReadFile, subagentStart);
                  beforeSubmitPrompt: {"continue": false, "user_message": …}
  ask             beforeShellExecution, beforeMCPExecution: {"permission": "ask"}; elsewhere Cursor
                  cannot ask: answered as a block
  rewrite         preToolUse: {"permission": "allow", "updated_input": …}; a rewrite on another gate
                  is answered as a block
  keep working    stop, subagentStop: {"followup_message": …}
  context         additional_context (postToolUse, sessionStart); env (sessionStart)`,
    file: '.cursor/hooks.json (user: ~/.cursor/hooks.json)',
    example: `{"conversation_id":"c1","generation_id":"g1","hook_event_name":"beforeShellExecution","workspace_roots":["/work"],"command":"rm -rf /","cwd":""}`,
    before: `{"version": 1, "hooks": {"beforeShellExecution": [{"command": ".cursor/hooks/guard.sh", "timeout": 10}]}}`,
  },
  copilot: {
    what: "GitHub Copilot CLI's hook protocol (.github/hooks/*.json: preToolUse, userPromptSubmitted, …)",
    answers: `  a block         exit 0: preToolUse {"permissionDecision": "deny", "permissionDecisionReason": …};
                  permissionRequest {"behavior": "deny", "message": …}; userPromptSubmitted
                  {"decision": "block", "reason": …} (Copilot takes exit 2 for a warning, not a block)
  ask, allow      preToolUse: {"permissionDecision": "ask"|"allow"}
  rewrite         preToolUse: {"modifiedArgs": …}; userPromptSubmitted: {"modifiedPrompt": …}
  keep working    agentStop, subagentStop: {"decision": "block", "reason": …}
  context         additionalContext where Copilot takes it
Copilot's inputs do not name their event: --event <name> says it (install writes it).`,
    file: '.github/hooks/<name>.json (user: ~/.copilot/hooks/<name>.json)',
    example: `{"timestamp":1704614600000,"cwd":"/work","toolName":"bash","toolArgs":"{\\"command\\":\\"rm -rf /\\"}"}`,
    before: `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./scripts/guard.sh", "timeoutSec": 10}]}}`,
  },
};

const addFlag = (cmd: Command, f: FlagSpec) => {
  if (f.multiple === true)
    cmd.option(commanderFlag(f), f.description, (v: string, prev: string[] = []) => [...prev, v]);
  else cmd.option(commanderFlag(f), f.description);
};

/** `<agent> install`: route an agent's hooks file through the adapter. */
function registerInstall(cmd: Command, agent: AgentName, setExitCode: (code: number) => void): void {
  const h = HELP[agent];
  const spec = agentAdapter(agent);
  cmd
    .command('install')
    .description(
      `route the hooks of ${h.file} through the adapter: prints the block, --write puts it in place`,
    )
    .argument('<file>', `${spec.title}'s hooks file: ${h.file}`)
    .option(
      '--write',
      'write the hooks copy and put the block in <file> (the file as it was is kept as <file>.bak); every file is created new (O_EXCL|O_NOFOLLOW), never through a symbolic link: a link as <file>, its folder or a file it writes is refused',
    )
    .option(
      '--socket <path>',
      'write the adapter command with --socket <path>: it forwards to a `hookwarden serve --socket <path>` with the same config when one runs',
    )
    .option(
      '--hooks-file <path>',
      `where the hooks copy goes (default: <file name>.hookwarden${agent === 'copilot' ? '' : '.json'} next to <file>, a name ${spec.title} does not read)`,
    )
    .option(
      '--no-client',
      'write the Node adapter command even where hookwarden-client was built (every call starts Node)',
    )
    .addOption(followLinkOption())
    .addHelpText(
      'after',
      `
The hooks the adapter runs move to a copy ${spec.title} does not read; each event that had some gets
ONE adapter hook instead, whose timeout covers the moved hooks (summed where hookwarden runs them one
after the other, the longest where at once, plus 2 s; the adapter answers 3 s before ${spec.title}
gives up), running hookwarden-client (where it was built), this node and this hookwarden by their
real paths, with a guard that gives the event's fail-closed answer if the command cannot run at all
(hookwarden moved or removed). Left with ${spec.title}, as they were: hook types it runs itself,
events hookwarden has no place for (named, with the reason). A symbolic link on the way is followed
only when it is your dotfile link (in ~ or ~/.config), root's, or named with --follow-link. Run again,
install routes the hooks added to the file since, keeps the routed ones, and rewrites every command
for this hookwarden (after an upgrade or a move); \`${agent} uninstall <file>\` undoes it.

Before (${h.file.split(' ')[0]}):
  ${h.before}

Exit status: 0 printed (and written, with --write), 1 error (nothing written).

Examples:
  $ hookwarden ${agent} install ${h.file.split(' ')[0]}
  $ hookwarden ${agent} install ${h.file.split(' ')[0]} --write`,
    )
    .action(async (file: string, flags: InstallFlags) => {
      const { runInstall } = await import('./install-core.js');
      const { agentInstaller } = await import('./agent-install.js');
      setExitCode(await runInstall(agentInstaller(agent), file, flags));
    });
}

function addAgent(program: Command, agent: AgentName, setExitCode: (code: number) => void): void {
  const h = HELP[agent];
  const spec = agentAdapter(agent);
  const cmd = program
    .command(agent)
    .description(
      `${h.what}: run as ${spec.title}'s command hook, read one hook input on stdin, run the matching hooks under hookwarden, answer as ${spec.title} expects`,
    );
  for (const f of [...ADAPTER_FLAGS, ...spec.extraFlags]) addFlag(cmd, f);
  const eventFlag = agent === 'copilot' ? ' --event preToolUse' : '';
  cmd.addHelpText(
    'after',
    `
What it answers (docs/agents.md has the table of every event):
${h.answers}
  nothing to say  exit 0, empty stdout
It fails closed: input it cannot read, bad flags, a config that does not load or that routes through
an adapter itself, an internal error, an interrupt or --timeout before a verdict get ${spec.title}'s
blocking answer on events that can block (and on unknown ones), a non-blocking error elsewhere. Where
${spec.title}'s own reading would let a call through (a failed hook, a decision it ignores), the
adapter still answers hookwarden's verdict in a form ${spec.title} honours. Never a stack trace.
Tool names are read in ${spec.title}'s words and dispatched in one vocabulary (Bash, Read, Write,
Edit, …), so a policy written once guards every agent.

Exit status: ${agent === 'cursor' || agent === 'copilot' ? '0 answered (the JSON says a block)' : '0 answered, 2 block (reason on stderr)'}, 1 non-blocking error.

Examples:
  $ echo '${h.example}' \\
      | hookwarden ${agent}${eventFlag} --config ${agent === 'copilot' ? '.github/hooks/guard.hookwarden' : h.file.split(' ')[0]!.replace(/(\.json)$/, '.hookwarden$1')}
  $ hookwarden ${agent} install ${h.file.split(' ')[0]} --write`,
  );
  cmd.action(async () => {
    const { runAgentAdapter } = await import('./agent-spec.js');
    setExitCode(await runAgentAdapter(agent, process.argv.slice(3)));
  });

  registerInstall(cmd, agent, setExitCode);
  addUninstallCommand(
    cmd,
    agent,
    spec.title,
    h.file.split(' ')[0]!,
    async () => (await import('./agent-install.js')).agentInstaller(agent),
    setExitCode,
  );
}

export function addAgentCommands(program: Command, setExitCode: (code: number) => void): void {
  for (const agent of ['codex', 'gemini', 'cursor', 'copilot'] as const)
    addAgent(program, agent, setExitCode);
}
