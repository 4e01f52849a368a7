// `hookwarden <agent> uninstall <file>` for every agent (Claude Code's and each coding agent's), and
// the --follow-link option it shares with install.
import { type Command, Option } from 'commander';
import type { Installer } from './install-types.js';

/** --follow-link <path>: a link on the way that is the user's own (install-paths.ts). */
export const followLinkOption = (): Option =>
  new Option(
    '--follow-link <path>',
    "a symbolic link on the way to <file> that is yours (a folder linked from your dotfiles outside ~ and ~/.config): install follows no other link but your dotfile links in ~ and ~/.config and root's own; repeatable",
  ).argParser((v: string, prev: string[] = []) => [...prev, v]);

export function addUninstallCommand(
  parent: Command,
  agent: string,
  title: string,
  file: string,
  installer: () => Promise<Installer>,
  setExitCode: (code: number) => void,
): void {
  parent
    .command('uninstall')
    .description(`undo \`${agent} install\`: the hooks of the copy go back into <file>; --write does it`)
    .argument('<file>', `${title}'s hooks file that install rewrote: ${file}`)
    .option(
      '--write',
      'write <file> with the hooks restored, remove the copy and <file>.bak, and stop the daemons that served the copy',
    )
    .addOption(followLinkOption())
    .addHelpText(
      'after',
      `
Each adapter hook install wrote is replaced by the hooks of the copy it read (as they are in the copy
now, edits included); an event of the copy the file no longer names is added back. Every other
change made to <file> since install stays: hooks added, settings changed. The copy and <file>.bak
(the file before install) are removed, and the daemons whose configuration was the copy stop. A file
that routes nothing through \`hookwarden ${agent}\` is left as it is (exit 0). Written as install
writes: never through a symbolic link, the file replaced by a rename.

Exit status: 0 printed (and written, with --write), 1 error (nothing written).

Examples:
  $ hookwarden ${agent} uninstall ${file}
  $ hookwarden ${agent} uninstall ${file} --write`,
    )
    .action(async (path: string, flags: { write?: boolean; followLink?: string[] }) => {
      const { runUninstall } = await import('./uninstall.js');
      setExitCode(await runUninstall(await installer(), path, flags));
    });
}
