// `hookwarden bench`: dispatches one event many times and reports latency percentiles, throughput
// and ratios to baselines measured in the same run. Text or --json on stdout; a progress bar on
// stderr when it is a terminal; --report writes a self-contained HTML page.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { HookwardenError } from '../../contract/hookwarden-error.js';
import type { ConfigSource } from '../../executor/options.js';
import type { BenchOptions } from '../../measure/bench-options.js';
import type { BenchResult } from '../../measure/bench-result.js';
import { formatBenchText } from '../../measure/format-text.js';
import { createProgress } from '../../measure/progress.js';
import { renderHtmlReport } from '../../measure/report-html.js';
import { runBench } from '../../measure/run-bench.js';
import { claimInterrupts } from '../interrupt.js';
import { readCliInputObject } from '../read-input.js';
import { UsageError } from '../usage-error.js';
import { pacedBench } from './bench-pace.js';

export interface BenchFlags {
  config?: string[];
  userConfig?: string[];
  policy?: string[];
  allowHttpUrl?: string[];
  event?: string;
  input?: string;
  replay?: string;
  toolCalls?: string;
  isolation?: string;
  iterations?: string;
  concurrency?: string;
  tenants?: string;
  warmup?: string;
  root?: string;
  json?: boolean;
  report?: string;
  blocks?: string;
  varyInput?: boolean;
  redactInput?: boolean;
  /** Commander's `--no-progress`: false when given. */
  progress?: boolean;
  url?: string;
  token?: string;
  /** `bench ab`'s side: pace the blocks on stdin / fd 3 (hidden flag). */
  paced?: boolean;
}

/**
 * `--tool-calls p50=69,p90=423` (labels and counts) or `--tool-calls 50,500` (the counts label
 * themselves), as a null-prototype map.
 */
function parseToolCalls(value: string): Record<string, number> {
  const out: Record<string, number> = Object.create(null);
  const items = value.split(',').map((s) => s.trim());
  for (const item of items) {
    const m = /^(?:([A-Za-z][\w.-]{0,39})=)?(\d{1,10})$/.exec(item);
    if (m === null || items.length > 20)
      throw new UsageError(
        `--tool-calls: expected counts such as p50=69,p90=423 or 50,500 (at most 20), got ${JSON.stringify(value)}`,
      );
    out[m[1] ?? m[2]!] = Number(m[2]);
  }
  return out;
}

/** `--isolation all`, one level, or a comma list of levels. */
function parseIsolation(value: string | undefined): 'all' | string[] | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  return v === 'all'
    ? 'all'
    : v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
}

/** A whole number from a flag, or a UsageError naming the flag and the value. */
function parseCount(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`${flag}: expected a whole number ≥ ${min}, got ${JSON.stringify(value)}`);
  }
  return n;
}

export function checkReportPath(path: string, flag = '--report'): void {
  const dir = dirname(resolve(path));
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`${flag} ${path}: directory ${dir} does not exist`);
  if (existsSync(path) && statSync(path).isDirectory())
    throw new UsageError(`${flag} ${path}: is a directory, expected an .html file path`);
}

export function writeReport(path: string, html: string, flag = '--report'): void {
  try {
    writeFileSync(path, html);
  } catch (err) {
    throw new UsageError(
      `${flag} ${path}: cannot write (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
}

/** The flags checked, in the order a user would fix them; the input is read last. */
function checkFlags(flags: BenchFlags, config: ConfigSource[], token: string | undefined): void {
  if (flags.url !== undefined && token === undefined)
    throw new UsageError(
      '--url needs a token: --token <token> or HOOKWARDEN_TOKEN (`hookwarden serve token`)',
    );
  if (config.length === 0 && (flags.policy ?? []).length === 0 && flags.url === undefined) {
    throw new UsageError(
      'bench needs at least one --config <file> (or --policy <file>); see `hookwarden bench --help`',
    );
  }
  if (flags.report !== undefined) checkReportPath(flags.report);
  if ((flags.event === undefined) === (flags.replay === undefined))
    throw new UsageError(
      flags.event === undefined
        ? 'bench needs --event <event> (the event to dispatch, e.g. BeforeTool) or --replay <file.jsonl|dir> (a recorded session)'
        : '--event and --replay: give one; each replayed line names its own event',
    );
  if (flags.replay !== undefined && flags.input !== undefined)
    throw new UsageError('--input and --replay: give one; a replayed line is its own input');
  if (flags.toolCalls !== undefined && flags.replay === undefined)
    throw new UsageError('--tool-calls needs --replay: the session cost comes from a recorded session');
  if (flags.paced === true && flags.event !== undefined && (flags.input === undefined || flags.input === '-'))
    throw new UsageError('--paced needs --input <file>: its stdin carries the pacing');
}

/** runBench's options from the flags (the ones that are counts parsed, the rest as given). */
function benchOptions(
  flags: BenchFlags,
  config: ConfigSource[],
  token: string | undefined,
  input: Record<string, unknown> | undefined,
): BenchOptions {
  const counts = {
    iterations: parseCount('--iterations', flags.iterations, 1),
    concurrency: parseCount('--concurrency', flags.concurrency, 1),
    tenants: parseCount('--tenants', flags.tenants, 1),
    warmup: parseCount('--warmup', flags.warmup, 0),
    blocks: parseCount('--blocks', flags.blocks, 1),
  };
  const isolation = parseIsolation(flags.isolation);
  return {
    ...(flags.url === undefined
      ? {
          config,
          policy: flags.policy ?? [],
          ...(flags.allowHttpUrl !== undefined ? { allowedHttpHookUrls: flags.allowHttpUrl } : {}),
        }
      : {}),
    ...(flags.root !== undefined ? { root: flags.root } : {}),
    ...(flags.event !== undefined ? { event: flags.event } : {}),
    ...(input !== undefined ? { input } : {}),
    ...(flags.replay !== undefined ? { replay: flags.replay } : {}),
    ...(flags.toolCalls !== undefined ? { toolCallsPerSession: parseToolCalls(flags.toolCalls) } : {}),
    ...(isolation !== undefined ? { isolation } : {}),
    ...Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== undefined)),
    varyInput: flags.varyInput === true,
    redactInput: flags.redactInput === true,
    ...(flags.url !== undefined && token !== undefined ? { url: flags.url, token } : {}),
  };
}

export async function runBenchCommand(flags: BenchFlags): Promise<number> {
  const abort = new AbortController();
  let running = false;
  claimInterrupts((_signal, repeated) => {
    if (running && !repeated) {
      abort.abort(new UsageError('bench interrupted: no result'));
      return;
    }
    // Not started yet (reading the input may block), or the user insists: no result, exit now.
    process.stderr.write('hookwarden: error: bench interrupted: no result\n', () => process.exit(1));
  });
  const config: ConfigSource[] = [
    ...(flags.userConfig ?? []).map((path) => ({ path, scope: 'user' as const })),
    ...(flags.config ?? []),
  ];
  // --url: the server's configuration applies; its token may come from the environment (argv is public).
  const token = flags.token ?? process.env.HOOKWARDEN_TOKEN;
  checkFlags(flags, config, token);
  const options = benchOptions(flags, config, token, undefined);
  // The input as given: its digest is what two runs of one file share (dispatch fills in the rest).
  const input = flags.replay === undefined ? await readCliInputObject(flags.input) : undefined;
  const quiet = flags.progress === false || flags.paced === true;
  const progress = quiet ? { update() {}, finish() {} } : createProgress(process.stderr, 'bench');
  const paced = flags.paced === true ? pacedBench() : undefined;
  let result: BenchResult;
  running = true;
  try {
    result = await runBench({
      ...options,
      ...(input !== undefined ? { input } : {}),
      ...(paced !== undefined ? { pace: paced.pace } : {}),
      onProgress: (done, total) => progress.update(done, total),
      signal: abort.signal,
    });
  } catch (err) {
    if (
      err instanceof HookwardenError &&
      ['unknown_event', 'invalid_input', 'invalid_options'].includes(err.code)
    ) {
      throw new UsageError(err.message);
    }
    throw err;
  } finally {
    progress.finish();
    paced?.close();
  }

  if (flags.report !== undefined) writeReport(flags.report, renderHtmlReport(result));
  process.stdout.write(
    flags.json === true
      ? `${JSON.stringify(result)}\n`
      : `${formatBenchText(result, { color: process.stdout.isTTY === true && process.env.NO_COLOR === undefined })}\n`,
  );
  if (flags.report !== undefined && flags.json !== true) process.stdout.write(`report: ${flags.report}\n`);
  return 0;
}
