// Which shell runs an inline command (docs/claude-code.md#dialects). hookwarden's own files: /bin/sh. Claude
// Code files: what their `shell` field says, bash by default (Claude Code's `shell` defaults to "bash"), and
// `powershell` runs pwsh (or Windows PowerShell's `powershell`) found on the host's PATH, or fails
// with a message saying so, as Claude Code does. The path is resolved on the host: both isolation
// modes see the host's /usr, where bash lives.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { CommandHookSpec } from '../registry/hook-definition.js';

const BASH_PATHS = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash'];
const POWERSHELLS = ['pwsh', 'powershell'];
/** Claude Code passes a PowerShell command with these options, and keeps an exit 2 an exit 2. */
const PWSH_OPTIONS = ['-NoProfile', '-NonInteractive', '-Command'];
const PWSH_KEEP_EXIT_2 = '\n; if (-not $?) { if ($LASTEXITCODE -eq 2) { exit 2 } }';

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const cache = new Map<string, string | null>();
function find(key: string, candidates: () => string[]): string | undefined {
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = candidates().find(executable) ?? null;
    cache.set(key, hit);
  }
  return hit ?? undefined;
}

/** The shell program and command to start, or why it cannot be started. */
export type ShellProgram =
  | { readonly ok: true; readonly program: CommandHookSpec['program'] & { interpreter?: readonly string[] } }
  | { readonly ok: false; readonly message: string };

/** Resolves the shell of `program` (argv programs are returned as they are). */
export function shellProgram(program: CommandHookSpec['program'], event: string): ShellProgram {
  if (program.kind !== 'shell' || program.shell === undefined || program.shell === 'sh')
    return { ok: true, program };
  if (program.shell === 'bash') {
    const bash = find('bash', () => BASH_PATHS);
    if (bash === undefined)
      return {
        ok: false,
        message: `the hook's command needs bash (Claude Code runs inline commands with bash) and none was found at ${BASH_PATHS.join(', ')}; install bash, or give the program in "command" and its arguments in "args"`,
      };
    return { ok: true, program: { ...program, interpreter: [bash, '-c'] } };
  }
  const path = process.env.PATH ?? '';
  const pwsh = find(`pwsh\0${path}`, () =>
    POWERSHELLS.flatMap((name) => path.split(delimiter).flatMap((d) => (d === '' ? [] : [join(d, name)]))),
  );
  if (pwsh === undefined)
    return {
      ok: false,
      message:
        'the hook has shell: "powershell" but no PowerShell executable (pwsh or powershell) was found on PATH; install PowerShell, or remove "shell": "powershell" to use bash',
    };
  // Claude Code keeps a failed native command's exit 2 (a block) an exit 2, except on PermissionRequest.
  const command = event === 'ApprovalRequest' ? program.command : program.command + PWSH_KEEP_EXIT_2;
  return { ok: true, program: { ...program, command, interpreter: [pwsh, ...PWSH_OPTIONS] } };
}
