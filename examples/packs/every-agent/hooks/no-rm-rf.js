// BeforeTool guard for shell commands, whatever agent sent them: Claude Code's and Codex's Bash,
// Gemini CLI's run_shell_command, Cursor's Shell and beforeShellExecution, Copilot CLI's bash all
// arrive as the tool `Bash` with `toolInput.command` (hookwarden's one vocabulary). A recursive,
// forced `rm` (-rf, -fr, -Rf, -r -f, --recursive --force) is refused.
const RM = /(^|[^\w.-])rm((?:\s+-{1,2}[\w-]+)+)/g;

export default function (input, ctx) {
  const command = String(input.toolInput?.command ?? '');
  for (const m of command.matchAll(RM)) {
    const words = m[2].trim().split(/\s+/);
    const recursive = words.some((w) => w === '--recursive' || (/^-[^-]/.test(w) && /[rR]/.test(w)));
    const force = words.some((w) => w === '--force' || (/^-[^-]/.test(w) && w.includes('f')));
    if (recursive && force)
      return {
        decision: 'deny',
        reason: `${ctx.hookId}: refusing a recursive forced delete (rm${m[2]}): delete what you mean, without -rf`,
      };
  }
}
