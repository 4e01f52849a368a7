// `hookwarden pack test` and `hookwarden pack bundle`: prove what a pack decides, and ship it as one
// signed archive to serve over HTTP. Their modules load when the command runs.
import type { Command } from 'commander';
import { allowHttpUrlOption } from '../collect.js';
import type { TestFlags } from './test.js';

const out = (line: string) => process.stdout.write(`${line}\n`);
const warn = (line: string) => process.stderr.write(`hookwarden: warning: ${line}\n`);

export function addPackPublishCommands(pack: Command, setExitCode: (code: number) => void): void {
  pack
    .command('test')
    .description(
      "run the pack's fixtures (tests/*.json) through a real executor, the pack pinned at policy scope",
    )
    .argument('<dir>', 'pack directory (holding hookpack.json and tests/)')
    .option('--root <dir>', 'sandbox root: the working directory of command hooks (default: cwd)')
    .addOption(allowHttpUrlOption())
    .option('--json', 'print the results as JSON (for CI)')
    .addHelpText(
      'after',
      `
A fixture is {"name", "event", "input", "expect": {"decision", "reasonMatches"?, "decidedBy"?,
"additionalContext"?, "mutatedToolInput"?, "hooks"?: {"<hook id>": "<outcome>"}, …}}; a file holds
one fixture or an array of them. Fixtures are files of the pack: the lock, the digest and so the
signature cover them. Each fixture is dispatched once, with its hooks in their configured isolation
(command hooks spawn, JS hooks run in QuickJS), and printed as it finishes: pass/FAIL/ERROR, the
expected and the actual decision, the latency. Then coverage (each hook: the fixtures that reached it
and its outcomes; hooks no fixture reached are listed) and "N passed, N failed".
A pack that is not locked yet (or was edited since) is tested as a locked copy of its current files:
the pack itself is never written.
Exit status: 0 when every fixture passes (and there is at least one), 1 otherwise.

Examples:
  $ hookwarden pack test examples/packs/guard
  $ hookwarden pack test packs/guard --json > results.json
  $ hookwarden pack lock packs/guard --require-tests      # lock only a pack whose fixtures pass`,
    )
    .action(async (dir: string, flags: TestFlags) => {
      const { runPackTest } = await import('./test.js');
      setExitCode(await runPackTest(dir, flags));
    });

  pack
    .command('bundle')
    .description('write a locked pack as one .tar.gz to serve over HTTP (pinned with "url" in hooks.json)')
    .argument('<dir>', 'a locked (and signed) pack directory')
    .requiredOption(
      '-o, --out <file>',
      'the bundle to write, e.g. dist/guard-1.3.0.tar.gz (replaced atomically)',
    )
    .addHelpText(
      'after',
      `
The bundle holds the locked files, hookpack.lock.json and hookpack.sig, sorted, with fixed modes,
owners and times: the same pack always gives the same bytes (and the same ETag from a static server).
It is unpacked again before it is written, with the limits an executor applies.
A url pin without a digest needs a signature: sign before you bundle.
Exit status: 0 written, 1 the pack does not match its lock (or another error).

Examples:
  $ hookwarden pack lock packs/guard && hookwarden pack sign packs/guard --key keys/reviewer.key
  $ hookwarden pack bundle packs/guard --out dist/guard-1.3.0.tar.gz`,
    )
    .action(async (dir: string, flags: { out: string }) => {
      const { bundlePack } = await import('../../packs/remote/bundle-pack.js');
      const r = await bundlePack(dir, flags.out);
      if (r.signatureCount === 0)
        warn(
          `${r.dir} is not signed: a url pin without a digest refuses it (run \`hookwarden pack sign\` first)`,
        );
      out(`bundled ${r.digest} (${r.fileCount} files) into ${r.out}`);
      out(
        `  ${r.bytes} bytes, file ${r.sha256}, ${r.signatureCount} signature${r.signatureCount === 1 ? '' : 's'}`,
      );
      setExitCode(0);
    });
}
