// `hookwarden test`: the flags and the help text; ./test.js runs it.

import type { Command } from 'commander';
import { allowHttpUrlOption, collect } from '../collect.js';

export function registerTest(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('test')
    .description(
      'run fixtures (the format of `pack test`) against any config: one line per fixture, then coverage',
    )
    .argument('<config>', 'hooks.json (project scope)')
    .argument('<fixtures...>', 'fixture files, or directories of them (every .json file inside)')
    .option('-p, --policy <file>', 'policy file loaded with the config; repeatable', collect)
    .addOption(allowHttpUrlOption())
    .option('--root <dir>', 'sandbox root: the working directory of command hooks (default: cwd)')
    .option('--pack-cache <dir>', 'cache of packs pinned by url (default ~/.cache/hookwarden/packs)')
    .option('--json', 'print the results as JSON (for CI)')
    .addHelpText(
      'after',
      `
A fixture: {"name": "blocks rm -rf", "event": "BeforeTool", "input": {"toolName": "Bash",
"toolInput": {"command": "rm -rf /"}}, "expect": {"decision": "deny", "reasonMatches": "rm"}}.
A file holds one fixture or an array of them; names must be unique. "expect" may also name
decidedBy, additionalContext (or additionalContextMatches), mutatedToolInput, mutatedPrompt,
modelOverride, mutatedText, updatedToolOutput, mutatedRequest, continueWork (null: must be absent)
and hooks: {"<hook id>": "<outcome>"}. Each fixture is its own session (sessionId "fixture-<n>").
The config loads as \`hookwarden dispatch\` loads it, and must load without errors.
Exit status: 0 when every fixture passes (and there is at least one), 1 otherwise.

Examples:
  $ hookwarden test hooks.json tests/
  $ hookwarden test .claude/settings.json tests/bash.json tests/write.json --json`,
    )
    .action(async (config: string, fixtures: string[], flags) => {
      const { runConfigTest } = await import('./test.js');
      setExitCode(await runConfigTest(config, fixtures, flags));
    });
}
