// `hookwarden bench report`, `bench compare` and `bench ab`: the flags and the help text. The
// commands themselves are imported from ./bench-compare.js and ./bench-ab.js when they run.
import type { Command } from 'commander';
import { collect } from '../collect.js';
import { addRunOptions } from './bench-run-options.js';

const EXIT_STATUS = `Exit status: 0 no series got slower; 1 a series (not a baseline) got slower, or an unreadable
result or a bad flag; 3 inconclusive: no series got slower, but one could not be told from the runs'
noise (a busy machine, CPU steal, runs that drifted), or a change showed between two runs of the same
build and config. A CI gate that must not pass on doubt fails on any non-zero status.`;

const COMPARE_HELP = `
For each series (overall, each hook, each tenant, each baseline): the p50, p90 and p99 change, and a
two-sided Mann-Whitney U test over the two runs' per-block medians. Each run's figures are first
divided by the baselines it measured (command hooks by spawn, JS hooks by eval, dispatches by the
baselines of the hook types they ran), so a slower machine is not a slower hookwarden; when the
baselines themselves moved, a note says so.

Each series also has a noise floor, read from the runs themselves: how long each run's threads
waited for a CPU while ready to run (and the CPU time the hypervisor stole), and how far its own
block medians drifted from its first half to its second. A series is "slower" or "faster" when
p < alpha, its p50 moved more than the threshold AND the change is beyond its floor; a change
within the floor, or a run so busy that its floor is above the threshold, is "inconclusive", with
the reason. Two separate runs on a busy machine rarely tell: \`bench ab\` alternates them instead.

${EXIT_STATUS}

Examples:
  $ hookwarden bench -c hooks.json -e BeforeTool -i event.json -n 2000 --json > base.json
  $ hookwarden bench -c hooks.json -e BeforeTool -i event.json -n 2000 --json > new.json
  $ hookwarden bench compare base.json new.json --threshold 10% --report compare.html`;

const AB_HELP = `
Two sides, each a \`hookwarden bench --paced\` process of its own build and config, measured in one
window: side A runs a block (its baselines, then its dispatches), then side B, then B again and A,
and so on, the order swapping every block. Each pair of blocks met the same machine, so the pairs'
raw latencies are compared directly (dividing by baselines would only add their own noise) and
their ratios tested (a two-sided Wilcoxon signed-rank test, the change estimated by Hodges-Lehmann);
the load, which falls on both sides alike, sets no floor: the floor is the drift of the ratios from
the first half of the blocks to the second. This is the way to gate CI on a shared runner:
two separate runs meet different neighbours, and \`bench compare\` then often cannot tell.

-c applies to both sides; --base-config and --new-config give a side its own (repeatable). The
builds are this hookwarden unless --base-build or --new-build names another built checkout (its
folder or its bin/hookwarden, from this version on). Nothing differing is allowed: an A/A run
shows the noise of the machine.

${EXIT_STATUS}

Examples:
  $ hookwarden bench ab -e BeforeTool -i event.json --base-config hooks.json --new-config hooks.new.json
  $ hookwarden bench ab -c hooks.json -e BeforeTool -i event.json --base-build ../main -n 2000 --threshold 10%`;

function addReport(bench: Command, setExitCode: (code: number) => void): void {
  bench
    .command('report')
    .description('render a saved bench result (bench --json) as a self-contained HTML page')
    .argument('<result.json>', 'output of hookwarden bench --json')
    .requiredOption('-o, --out <file.html>', 'the page to write')
    .addHelpText(
      'after',
      `
Exit status: 0 written, 1 unreadable result or unwritable page.

Example:
  $ hookwarden bench report bench.json --out bench.html`,
    )
    .action(async (file: string, flags: { out: string }) => {
      const { runBenchReport } = await import('./bench-compare.js');
      setExitCode(runBenchReport(file, flags));
    });
}

/** The verdict's flags, shared by `compare` and `ab`. */
function addVerdictOptions(command: Command): Command {
  return command
    .option('--threshold <pct>', 'smallest p50 change that counts, in percent (default: 5%)')
    .option('--alpha <p>', 'significance level of the test (default: 0.05)')
    .option('--json', 'print the comparison as one JSON object')
    .option('--report <file.html>', 'also write a page with both runs overlaid and the table');
}

export function addCompareCommands(bench: Command, setExitCode: (code: number) => void): void {
  addReport(bench, setExitCode);
  addVerdictOptions(
    bench
      .command('compare')
      .description(
        'compare two saved bench results series by series; exit 1 when one got slower, 3 when they cannot tell',
      )
      .argument('<base.json>', 'the baseline run (bench --json)')
      .argument('<new.json>', 'the run to judge'),
  )
    .option('--no-normalize', 'compare raw latencies instead of dividing each run by its own baselines')
    .addHelpText('after', COMPARE_HELP)
    .action(async (baseFile: string, newFile: string, flags) => {
      const { runBenchCompare } = await import('./bench-compare.js');
      setExitCode(runBenchCompare(baseFile, newFile, flags));
    });
  addVerdictOptions(
    addRunOptions(
      bench
        .command('ab')
        .description(
          'measure two configs, or two builds, alternately in one window and compare them block by block (the way to gate CI)',
        ),
    ),
  )
    .option('--base-config <file>', "the base side's hooks.json instead of -c; repeatable", collect)
    .option('--new-config <file>', "the new side's hooks.json instead of -c; repeatable", collect)
    .option('--base-build <checkout>', 'run the base side with another built hookwarden checkout')
    .option('--new-build <checkout>', 'run the new side with another built hookwarden checkout')
    .option('--save <dir>', "write each side's result to <dir>/base.json and <dir>/new.json")
    .addHelpText('after', AB_HELP)
    .action(async (flags) => {
      const { runBenchAb } = await import('./bench-ab.js');
      setExitCode(await runBenchAb(flags));
    });
}
