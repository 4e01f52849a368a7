// `hookwarden dispatch`: the flags and the help text. The dispatch itself is imported from
// ./dispatch.js when the command runs.

import type { Command } from 'commander';
import { allowHttpUrlOption, collect } from '../collect.js';

const DISPATCH_HELP = `
Exit status: 0 proceed (allow, ask, passthrough), 2 deny, 1 usage or config error.
Async hooks ("async": true) run after the result is printed; the process exits when they have
finished (at most --async-wait ms). Each "rewake" (an asyncRewake hook said no) is one JSON line on
stderr, prefixed "hookwarden: rewake: "; their records go to --audit. Ctrl-C or SIGTERM while
waiting for them aborts them: a queued one is recorded not-run, a running one is killed and recorded
"aborted"; the exit status stays the result's.
stdout carries only the JSON result; warnings and errors go to stderr.
The input: --input <file>; else stdin when it is a pipe or a file (read to its end: a caller that
keeps stdin open without writing must pass --input); else {} (a terminal, /dev/null). Input that is
not a JSON object is an error. Missing fields are filled in: sessionId "cli", cwd = current
directory, timestamp = now.
Ctrl-C or SIGTERM at any moment kills running hooks and prints the interrupted result: deny (exit 2)
on events that can deny (and on an event not known yet); otherwise the result so far with
"interrupted": true, exit 130 (SIGINT) or 143 (SIGTERM).

Examples:
  $ echo '{"toolName":"Bash","toolInput":{"command":"rm -rf /"}}' \\
      | hookwarden dispatch BeforeTool --config hooks.json
  $ hookwarden dispatch PreToolUse -c ~/.claude/settings.json -i event.json --pretty
  $ hookwarden dispatch SessionStart -c hooks.json -p /etc/hookwarden/policy.json --audit audit.jsonl
  $ hookwarden dispatch BeforeTool -c hooks.json -i event.json \\
      --audit /var/log/hookwarden/audit.jsonl --audit-key /etc/hookwarden/audit.key`;

export function registerDispatch(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('dispatch')
    .description('run every hook registered for <event> and print the folded DispatchResult as JSON')
    .argument('<event>', 'event name or alias, e.g. BeforeTool or PreToolUse')
    .option(
      '-c, --config <file>',
      'hooks.json (project scope); repeat to layer files, later ones win',
      collect,
    )
    .option(
      '--user-config <file>',
      'hooks.json loaded as user scope (lowest precedence); repeatable',
      collect,
    )
    .option(
      '-p, --policy <file>',
      'policy file: its hooks always run first and cannot be replaced; repeatable',
      collect,
    )
    .addOption(allowHttpUrlOption())
    .option(
      '-i, --input <file>',
      'HookInput JSON file, or - for stdin (default: stdin when it is a pipe or a file, else {})',
    )
    .option(
      '--tenant <id>',
      'tenant the dispatch runs for: policy hooks plus the tenant\'s own (config "tenants"), never the others',
    )
    .option('--strict', 'a config entry that would be skipped (invalid, unknown event…) is an error: exit 1')
    .option('--audit <file.jsonl>', 'append one JSON line per executed hook (metadata only, never content)')
    .option(
      '--audit-key <file>',
      'key the --audit file: every record gets an HMAC-SHA-256 under this key (mode 0600 file, from `audit keygen`)',
    )
    .option(
      '--audit-required',
      'a dispatch whose --audit records cannot be written (after retries) denies on deny-capable events; without it the verdict stands, with a warning in the result',
    )
    .option('--root <dir>', 'sandbox root: the working directory of command hooks (default: cwd)')
    .option(
      '--pack-cache <dir>',
      "cache of packs pinned by url (default ~/.cache/hookwarden/packs); a bundle checked less than its pin's pollSeconds ago is used without asking the server",
    )
    .option('--pretty', 'indent the JSON result')
    .option(
      '--async-wait <ms>',
      'after printing the result, wait at most this long for async hooks to finish (default 60000; 0: abort them, each recorded not-run)',
    )
    .addHelpText('after', DISPATCH_HELP)
    .action(async (event: string, flags) => {
      const { runDispatch } = await import('./dispatch.js');
      setExitCode(await runDispatch(event, flags));
    });
}
