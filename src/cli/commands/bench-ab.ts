// `hookwarden bench ab`: two configs, or two builds, measured alternately in one window. Each side
// is a `bench --paced` process of its own build with its own config; their measured blocks take
// turns (base, new, then new, base…), so both meet the same machine block for block, and the
// comparison pairs the blocks (a Wilcoxon signed-rank test of their ratios) instead of comparing
// two runs measured at different times. Exit 0, 1 on a regression, 3 when it cannot tell.
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compareResults } from '../../measure/compare.js';
import { packageRoot } from '../../measure/describe-run.js';
import { formatCompareText } from '../../measure/format-compare.js';
import { parseBenchResult } from '../../measure/load-result.js';
import { renderCompareReport } from '../../measure/report-compare.js';
import { claimInterrupts } from '../interrupt.js';
import { readCliInputObject } from '../read-input.js';
import { UsageError } from '../usage-error.js';
import { checkReportPath, writeReport } from './bench.js';
import { type CompareFlags, exitStatus, parseAlpha, parsePercent } from './bench-compare.js';
import { alternate, PacedSide } from './bench-pace.js';

/** The flags `bench ab` passes on to both sides as they are. */
const SHARED = {
  event: '--event',
  replay: '--replay',
  toolCalls: '--tool-calls',
  iterations: '--iterations',
  concurrency: '--concurrency',
  tenants: '--tenants',
  warmup: '--warmup',
  blocks: '--blocks',
  root: '--root',
} as const;

export interface AbFlags
  extends Omit<CompareFlags, 'normalize'>,
    Partial<Record<keyof typeof SHARED, string>> {
  config?: string[];
  userConfig?: string[];
  policy?: string[];
  allowHttpUrl?: string[];
  input?: string;
  varyInput?: boolean;
  redactInput?: boolean;
  baseConfig?: string[];
  newConfig?: string[];
  baseBuild?: string;
  newBuild?: string;
  save?: string;
}

/** A side's hookwarden: a built checkout given by its folder or its bin/hookwarden; default this one. */
function buildBin(flag: string, given: string | undefined): string {
  if (given === undefined) {
    const root = packageRoot();
    if (root === undefined) throw new UsageError("bench ab: cannot find this hookwarden's bin/hookwarden");
    return join(root, 'bin', 'hookwarden');
  }
  const path = resolve(given);
  const bin = existsSync(path) && statSync(path).isDirectory() ? join(path, 'bin', 'hookwarden') : path;
  if (!existsSync(bin))
    throw new UsageError(
      `${flag} ${given}: ${bin} not found; give a hookwarden checkout (or its bin/hookwarden)`,
    );
  const root = resolve(bin, '..', '..');
  if (!existsSync(join(root, 'dist', 'cli', 'bundle', 'main.js')))
    throw new UsageError(`${flag} ${given}: not built; run \`npm ci && npm run build\` in ${root}`);
  return bin;
}

interface Side {
  name: 'base' | 'new';
  label: string;
  bin: string;
  config: string[];
}

function sidesOf(flags: AbFlags): [Side, Side] {
  const side = (name: 'base' | 'new', build: string | undefined, own: string[] | undefined): Side => {
    const config = own ?? flags.config ?? [];
    if (config.length === 0 && (flags.policy ?? []).length === 0 && (flags.userConfig ?? []).length === 0)
      throw new UsageError(
        `bench ab: the ${name} side has no config: give -c <file> (both sides) or --${name}-config <file>`,
      );
    const what = [build === undefined ? 'this build' : `build ${build}`, ...config];
    return { name, label: `${name} (${what.join(', ')})`, bin: buildBin(`--${name}-build`, build), config };
  };
  return [side('base', flags.baseBuild, flags.baseConfig), side('new', flags.newBuild, flags.newConfig)];
}

/** Both sides' arguments but their configs: the shared flags, the input file, and the protocol's. */
function sharedArgs(flags: AbFlags, inputFile: string | undefined): string[] {
  const args: string[] = [];
  for (const [key, flag] of Object.entries(SHARED)) {
    const v = flags[key as keyof typeof SHARED];
    if (v !== undefined) args.push(flag, v);
  }
  for (const p of flags.policy ?? []) args.push('--policy', p);
  for (const u of flags.userConfig ?? []) args.push('--user-config', u);
  for (const u of flags.allowHttpUrl ?? []) args.push('--allow-http-url', u);
  if (inputFile !== undefined) args.push('--input', inputFile);
  if (flags.varyInput === true) args.push('--vary-input');
  if (flags.redactInput === true) args.push('--redact-input');
  return [...args, '--json', '--no-progress', '--paced'];
}

function checkAbFlags(flags: AbFlags): { threshold: number; alpha: number } {
  if ((flags.event === undefined) === (flags.replay === undefined))
    throw new UsageError('bench ab needs --event <event> or --replay <file.jsonl|dir> (one of them)');
  if (flags.replay !== undefined && flags.input !== undefined)
    throw new UsageError('--input and --replay: give one; a replayed line is its own input');
  if (flags.report !== undefined) checkReportPath(flags.report);
  if (flags.save !== undefined && existsSync(flags.save) && !statSync(flags.save).isDirectory())
    throw new UsageError(`--save ${flags.save}: not a directory`);
  return {
    threshold: flags.threshold === undefined ? 0.05 : parsePercent('--threshold', flags.threshold),
    alpha: flags.alpha === undefined ? 0.05 : parseAlpha(flags.alpha),
  };
}

function parseSide(text: string, label: string) {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UsageError(`${label}: printed no bench result (${JSON.stringify(text.slice(0, 80))})`);
  }
  return parseBenchResult(raw, label);
}

export async function runBenchAb(flags: AbFlags): Promise<number> {
  const { threshold, alpha } = checkAbFlags(flags);
  const sides = sidesOf(flags);
  // Both sides dispatch the one input, from a file: their stdin carries the pacing.
  const input = flags.event === undefined ? undefined : await readCliInputObject(flags.input);
  const dir = mkdtempSync(join(tmpdir(), 'hookwarden-ab-'));
  const running: PacedSide[] = [];
  claimInterrupts((_signal, repeated) => {
    const exit = () =>
      process.stderr.write('hookwarden: error: bench ab interrupted: no result\n', () => process.exit(1));
    // The sides end first (each stops its hooks), unless the user insists.
    if (repeated) exit();
    else void Promise.all(running.map((s) => s.stop())).then(exit);
  });
  try {
    const inputFile = input === undefined ? undefined : join(dir, 'input.json');
    if (inputFile !== undefined) writeFileSync(inputFile, JSON.stringify(input));
    const args = sharedArgs(flags, inputFile);
    for (const s of sides)
      running.push(
        new PacedSide(s.label, process.execPath, [
          s.bin,
          'bench',
          ...s.config.flatMap((c) => ['-c', c]),
          ...args,
        ]),
      );
    const out = await alternate([running[0]!, running[1]!]);
    const [base, next] = out.map((text, i) => parseSide(text, sides[i]!.label));
    // One window: the machine is the same for both sides, block by block; baselines would add noise.
    const c = compareResults(base!, next!, {
      threshold,
      alpha,
      normalize: false,
      paired: true,
    });
    if (flags.save !== undefined) {
      mkdirSync(flags.save, { recursive: true });
      writeFileSync(join(flags.save, 'base.json'), `${out[0]}`);
      writeFileSync(join(flags.save, 'new.json'), `${out[1]}`);
    }
    const [bl, nl] = [sides[0].label, sides[1].label];
    if (flags.report !== undefined) writeReport(flags.report, renderCompareReport(base!, next!, c, bl, nl));
    process.stdout.write(
      flags.json === true
        ? `${JSON.stringify({ base: bl, new: nl, ...c, results: { base, new: next } })}\n`
        : `${formatCompareText(c, bl, nl)}\n`,
    );
    if (flags.report !== undefined && flags.json !== true) process.stdout.write(`report: ${flags.report}\n`);
    return exitStatus(c);
  } finally {
    await Promise.all(running.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}
