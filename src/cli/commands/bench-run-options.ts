// The flags `hookwarden bench` and `bench ab` share: what to run, how much, and where.
import type { Command } from 'commander';
import { allowHttpUrlOption, collect } from '../collect.js';

/** What to run and how much: the flags `bench` and `bench ab` share. */
export function addRunOptions(command: Command): Command {
  return command
    .option('-e, --event <event>', 'event to dispatch, e.g. BeforeTool or PreToolUse (or --replay)')
    .option(
      '--replay <file.jsonl|dir>',
      'replay a recorded session instead: one hook input per line, naming its event (docs/bench.md)',
    )
    .option(
      '--tool-calls <counts>',
      'with --replay: tool calls per session to state the cost at, e.g. p50=69,p90=423 (the default)',
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
    .option('--root <dir>', 'sandbox root: the working directory of command hooks (default: cwd)');
}
