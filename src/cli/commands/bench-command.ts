// `hookwarden bench`: the flags and the help text; `bench report`, `bench compare` and `bench ab` are
// registered by ./bench-compare-command.ts. The bench engine (src/measure) is imported from
// ./bench.js when the command runs.
import { type Command, Option } from 'commander';
import { addCompareCommands } from './bench-compare-command.js';
import { addRunOptions } from './bench-run-options.js';

const BENCH_HELP = `
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

Saved results: \`bench report\` renders one again, \`bench compare\` compares two (exit 1 on a
regression, 3 when the runs cannot tell); \`bench ab\` alternates two configs or builds in one window.

Examples:
  $ hookwarden bench -c examples/hooks.json -e BeforeTool -i examples/events/bash-rm-rf.json
  $ hookwarden bench -c hooks.json -e PreToolUse -n 20000 --concurrency 32 --tenants 4
  $ hookwarden bench -c hooks.json -e SessionStart --json > bench.json
  $ hookwarden bench -c hooks.json -e BeforeTool -i event.json --report bench.html
  $ hookwarden bench -c examples/hooks.json --replay examples/sessions/claude-code-session.jsonl
  $ hookwarden bench -c hooks.json --replay ~/.claude/hook-events.jsonl --tool-calls p50=25,p90=176
  $ hookwarden bench -c hooks.json -e PreToolUse -i event.json --isolation all
  $ hookwarden bench compare main.json branch.json --threshold 10%
  $ HOOKWARDEN_TOKEN=hw_… hookwarden bench --url http://127.0.0.1:8080 -e PreToolUse -i event.json --concurrency 32`;

export function addBenchCommands(program: Command, setExitCode: (code: number) => void): void {
  const bench = addRunOptions(
    program
      .command('bench')
      .enablePositionalOptions()
      .description(
        'dispatch one event many times, or replay a recorded session; report latency percentiles, throughput, ratios to baselines and the cost per session',
      ),
  )
    .option(
      '--isolation <level|all>',
      'run command hooks at each isolation level, interleaved: all (every level this host supports) or process,namespace',
    )
    .option('--json', 'print one JSON object on stdout (schema 2, docs/bench.md)')
    .option('--report <file.html>', 'also write a self-contained HTML report (charts, stage split, tables)')
    .option('--no-progress', 'no progress on stderr (default: a bar on a terminal, else a line every 5 s)')
    .option(
      '--url <url>',
      'dispatch to a running `hookwarden serve` instead (its config and the token apply)',
    )
    .option('--token <token>', 'bearer token for --url (default: $HOOKWARDEN_TOKEN)')
    .addOption(new Option('--paced', 'a side of `bench ab`: blocks start on "go" lines of stdin').hideHelp())
    .addHelpText('after', BENCH_HELP)
    .action(async (flags) => {
      const { runBenchCommand } = await import('./bench.js');
      setExitCode(await runBenchCommand(flags));
    });
  addCompareCommands(bench, setExitCode);
}
