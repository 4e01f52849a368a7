// Which command lines call the Claude Code adapter proper: `hookwarden claude-code …`, not its help,
// not `claude-code install` and not `claude-code daemon`. Those run without commander (main.ts), from the adapter's own
// CommonJS entry when bin/hookwarden starts them (adapter-main.ts). Dependency-free.

/** Whether the CLI's arguments (without node and the script) call the adapter proper. */
export function isAdapterCall(args: readonly string[]): boolean {
  return (
    args[0] === 'claude-code' &&
    args[1] !== 'install' &&
    args[1] !== 'daemon' &&
    args[1] !== 'help' &&
    !args.some((a) => a === '--help' || a === '-h')
  );
}
