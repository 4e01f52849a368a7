// `hookwarden validate`: the flags and the help text; ./validate.js runs it.

import type { Command } from 'commander';
import { allowHttpUrlOption, collect } from '../collect.js';

export function registerValidate(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('validate')
    .description(
      "check config files without running any hook but pinned packs' fixtures; every problem is listed with its JSON path",
    )
    .argument('[config...]', 'hooks.json files (hookwarden, Claude Code settings.json or FreeCode form)')
    .option('-p, --policy <file>', 'a policy file to validate (alone or with configs); repeatable', collect)
    .addOption(allowHttpUrlOption())
    .option(
      '--root <dir>',
      'sandbox root: where command hooks will run and $CLAUDE_PROJECT_DIR points, as for dispatch and claude-code (default: cwd)',
    )
    .option('--strict', 'exit 1 on warnings too')
    .option('--json', 'print the report as JSON')
    .option('--no-tests', 'do not run the fixtures (tests/*.json) of the packs that verified')
    .option('--pack-cache <dir>', 'cache of packs pinned by url (default ~/.cache/hookwarden/packs)')
    .addHelpText(
      'after',
      `
Command programs and scripts are looked up as the shell that runs them will (bash for a Claude Code
file: its builtins, ~/, $HOME, $CLAUDE_PROJECT_DIR = --root; exec-form args after Claude Code's
placeholders). Every pinned pack is verified (and fetched, for a url pin); the fixtures of each pack
that verified are run, as \`hookwarden pack test\` runs them, and a failing fixture is an error.
Exit status: 0 valid (warnings allowed unless --strict), 1 errors found (or no file given).

Examples:
  $ hookwarden validate hooks.json
  $ hookwarden validate .claude/settings.json --strict
  $ hookwarden validate ~/proj/.claude/settings.json --root ~/proj
  $ hookwarden validate --policy /etc/hookwarden/policy.json --no-tests`,
    )
    .action(async (files: string[], flags) => {
      const { runValidate } = await import('./validate.js');
      setExitCode(await runValidate(files, flags));
    });
}
