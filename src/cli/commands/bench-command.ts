// `hookwarden bench`, `bench report` and `bench compare`: the flags and the help text. The bench engine
// (src/measure) is imported from ./bench.js and ./bench-compare.js when a command runs.

import type { Command } from 'commander';
import { allowHttpUrlOption, collect } from '../collect.js';

export function addBenchCommands(program: Command, setExitCode: (code: number) => void): void {
  const bench = program
    .command('bench')
    .enablePositionalOptions()
    .description(
      'dispatch one event many times, or replay a recorded session; report latency percentiles, throughput, ratios to baselines and the cost per session',
    )
    .option('-e, --event <event>', 'event to dispatch, e.g. BeforeTool or PreToolUse (or --replay)')
    .option(
      '--replay <file.jsonl|dir>',
      'replay a recorded session instead: one hook input per line, naming its event (docs/bench.md)',
    )
    .option(
      '--tool-calls <counts>',
      'with --replay: tool calls per session to state the cost at, e.g. p50=69,p90=423 (the default)',
    )
    .option(
      '--isolation <level|all>',
      'run command hooks at each isolation level, interleaved: all (every level this host supports) or process,namespace',
    )
    .option('-c, --config <file>', 'hooks.json (project scope); repeatable, later ones win', collect)
    .option('--user-config <file>', 'hooks.json loaded as user scope; repeatable', collect)
    .option('-p, --policy <file>', 'policy file; repeatable', collect)
    .addOption(allowHttpUrlOption())
    .option(
      '-i, --input <file>',
      'HookInput JSON file, or - for stdin (default: stdin when it is a pipe or a file, else {}); dispatched as given, dispatch fills in the rest',
    )
    .option('-n, --iterations <n>', 'measured dispatches (default: 1000)')
    .option('--concurrency <c>', 'dispatches in flight at once (default: 1)')
    .option('--tenants <t>', 'spread dispatches round-robin over tenants t1…tT (default: 1, no tenant)')
    .option('--warmup <n>', 'unmeasured dispatches run first (default: 10)')
    .option('--blocks <b>', 'blocks the run is cut into, baselines before each (default: 20)')
    .option(
      '--vary-input',
      "give each dispatch its own timestamp (input's + n ms): seeded Math.random varies",
    )
    .option('--redact-input', 'record only the digest of the input in the result, not the input')
    .option('--root <dir>', 'sandbox root: the working directory of command hooks (default: cwd)')
    .option('--json', 'print one JSON object on stdout (schema 2, docs/bench.md)')
    .option('--report <file.html>', 'also write a self-contained HTML report (charts, stage split, tables)')
    .option('--no-progress', 'no progress on stderr (default: a bar on a terminal, else a line every 5 s)')
    .option(
      '--url <url>',
      'dispatch to a running `hookwarden serve` instead (its config and the token apply)',
    )
    .option('--token <token>', 'bearer token for --url (default: $HOOKWARDEN_TOKEN)')
    .addHelpText(
      'after',
      `
What it measures (docs/bench.md explains every figure):
  overall      latency of whole dispatches, timed around dispatch(): resolve, run every hook, fold.
  per hook     each hook's own latencyMs from the DispatchResult: a command hook spawn to exit; a JS
               hook the isolate call inside its worker (the round trip to the worker is not in it).
  per tenant   with --tenants T > 1, each tenant's dispatch latency and dispatch rate.
  stages       where a dispatch's time goes: queue, spawn/isolate (fork/exec or thread hop), the hook's run,
               fold and result building; per dispatch and per hook (means).
  throughput   measured dispatches / wall time of the dispatch blocks.
  percentiles  p50 p90 p99 p99.9 from an HDR histogram (3 significant digits); max and mean exact.

Baselines, measured in the same run, one call at a time, in blocks between the dispatch blocks:
  echo         a raw Piscina round trip of the input to a worker that returns it: the floor of any pool.
  spawn        a raw spawn('/bin/true') to exit: the floor of any command hook.
  eval         a fresh QuickJS runtime+context evaluating a trivial hook on this thread: the floor of a
               fresh isolate per call, without any pool.
Ratios are p50 ÷ baseline p50 (2.00× = twice the baseline). The overall dispatch is compared with each
baseline and with echo + eval (a JS hook end to end); a command hook with spawn; a JS hook with eval
(like for like) and with echo + eval. At --concurrency above 1 dispatch latencies include queueing:
compare ratios at concurrency 1, and throughput at higher concurrency.

Replay (--replay): each line of the file (or of every .jsonl file of a directory) is one hook input
as an agent sent it, in any dialect's spelling, naming its event (hook_event_name or event); lines of
one session_id are replayed in order. Per event name: the first (cold) call, then warm p50 p90 p99
p99.9, and the wall time of the whole hook set. The session cost is the time the hooks add to a
session: at the recorded mix, and at --tool-calls tool calls per session (default p50=69,p90=423),
split into queue, spawn/isolate, the hooks' own run, and fold. Record your own sessions with one hook
in Claude Code's settings.json: {"type":"command","command":"{ cat; echo; } >> ~/.claude/hook-events.jsonl"}

Failures: per hook, timeouts and other failures, and whether each let the call proceed (fail open)
or denied it. A hook that fails open on an event that can deny is a security failure: printed first,
in red.

Warnings (printed, and in --json) flag high variance between blocks, baselines that moved during the
run (a busy machine), a slow first block (warm-up) and hook failures. Hook failures never stop the
run; a dispatch that is rejected (unknown event, invalid input) stops it with exit 1.

Saved results: \`bench report\` renders one again, \`bench compare\` compares two (exit 1 on a regression).

Examples:
  $ hookwarden bench -c examples/hooks.json -e BeforeTool -i examples/events/bash-rm-rf.json
  $ hookwarden bench -c hooks.json -e PreToolUse -n 20000 --concurrency 32 --tenants 4
  $ hookwarden bench -c hooks.json -e SessionStart --json > bench.json
  $ hookwarden bench -c hooks.json -e BeforeTool -i event.json --report bench.html
  $ hookwarden bench -c examples/hooks.json --replay examples/sessions/claude-code-session.jsonl
  $ hookwarden bench -c hooks.json --replay ~/.claude/hook-events.jsonl --tool-calls p50=25,p90=176
  $ hookwarden bench -c hooks.json -e PreToolUse -i event.json --isolation all
  $ hookwarden bench compare main.json branch.json --threshold 10%
  $ HOOKWARDEN_TOKEN=hw_… hookwarden bench --url http://127.0.0.1:8080 -e PreToolUse -i event.json --concurrency 32`,
    )
    .action(async (flags) => {
      const { runBenchCommand } = await import('./bench.js');
      setExitCode(await runBenchCommand(flags));
    });

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

  bench
    .command('compare')
    .description('compare two saved bench results series by series; exit 1 when one got slower')
    .argument('<base.json>', 'the baseline run (bench --json)')
    .argument('<new.json>', 'the run to judge')
    .option('--threshold <pct>', 'smallest p50 change that counts, in percent (default: 5%)')
    .option('--alpha <p>', 'significance level of the Mann-Whitney U test (default: 0.05)')
    .option('--no-normalize', 'compare raw latencies instead of dividing each run by its own baselines')
    .option('--json', 'print the comparison as one JSON object')
    .option('--report <file.html>', 'also write a page with both CDFs overlaid and the table')
    .addHelpText(
      'after',
      `
For each series (overall, each hook, each tenant, each baseline): the p50, p90 and p99 change, and a
two-sided Mann-Whitney U test over the two runs' per-block medians. Each run's figures are first
divided by the baselines it measured (command hooks by spawn, JS hooks by eval, dispatches by the
baselines of the hook types they ran), so a slower machine is not a slower hookwarden; when the
baselines themselves moved, a note says so. A series is "slower" or "faster" when p < alpha AND its
p50 moved more than the threshold; otherwise "no significant change".

Exit status: 0 no series got slower, 1 a series (not a baseline) got slower, or an unreadable result.

Examples:
  $ hookwarden bench -c hooks.json -e BeforeTool -i event.json -n 2000 --json > base.json
  $ hookwarden bench -c hooks.json -e BeforeTool -i event.json -n 2000 --json > new.json
  $ hookwarden bench compare base.json new.json --threshold 10% --report compare.html`,
    )
    .action(async (baseFile: string, newFile: string, flags) => {
      const { runBenchCompare } = await import('./bench-compare.js');
      setExitCode(runBenchCompare(baseFile, newFile, flags));
    });
}
