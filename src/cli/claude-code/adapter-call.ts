// Which command lines call an adapter proper: `hookwarden claude-code …` (or codex, gemini, cursor,
// copilot …), not its help, not `<agent> install|uninstall` and not `claude-code daemon`. Those run without
// commander (main.ts), from the adapters' own CommonJS entry when bin/hookwarden starts them
// (adapter-main.ts). Dependency-free.

/** The adapters: Claude Code's and each coding agent's (docs/claude-code.md, docs/agents.md). */
export const ADAPTER_COMMANDS: readonly string[] = Object.freeze([
  'claude-code',
  'codex',
  'gemini',
  'cursor',
  'copilot',
]);

/** Whether the CLI's arguments (without node and the script) call an adapter proper. */
export function isAdapterCall(args: readonly string[]): boolean {
  return (
    args[0] !== undefined &&
    ADAPTER_COMMANDS.includes(args[0]) &&
    args[1] !== 'install' &&
    args[1] !== 'uninstall' &&
    args[1] !== 'daemon' &&
    args[1] !== 'help' &&
    !args.some((a) => a === '--help' || a === '-h')
  );
}
