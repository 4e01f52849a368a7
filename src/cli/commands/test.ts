// `hookwarden pack test <dir>` and `hookwarden test <config> <fixtures…>`: fixtures run through a real
// executor, one line per fixture as it finishes, then hook coverage, then `N passed, N failed` alone
// on the last line. Exit 0 only when there is at least one fixture and every one passes.
import type { Diagnostic } from '../../config/diagnostics.js';
import { formatDiagnostic } from '../../config/diagnostics.js';
import type { HookCoverage } from '../../fixture-runner/coverage.js';
import type { FixtureReport, FixtureResult } from '../../fixture-runner/run-fixtures.js';
import { UsageError } from '../usage-error.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

export interface TestFlags {
  policy?: string[];
  allowHttpUrl?: string[];
  root?: string;
  json?: boolean;
  packCache?: string;
}

const NAME_WIDTH = 40;
const padName = (s: string, width: number) =>
  s.length > width ? `${s.slice(0, width - 1)}…` : s.padEnd(width, ' ');

/** The line printed for a fixture as soon as it has run. */
function fixtureLine(r: FixtureResult): string {
  const status = r.status === 'pass' ? 'pass ' : r.status === 'fail' ? 'FAIL ' : 'ERROR';
  const verdicts = `expected ${r.expected}, got ${r.actual ?? '(not dispatched)'}`;
  const lines = [
    `${status} ${padName(r.name, NAME_WIDTH)} ${verdicts.padEnd(40, ' ')} ${r.latencyMs.toFixed(1)} ms`,
  ];
  if (r.status !== 'pass') {
    lines.push(`        at ${r.file}${r.at === '' ? '' : ` ${r.at}`}`);
    for (const p of r.problems) lines.push(`        - ${p}`);
  }
  return lines.join('\n');
}

function coverageLines(coverage: readonly HookCoverage[]): string[] {
  if (coverage.length === 0) return ['coverage: no hooks are configured'];
  const reached = coverage.filter((c) => c.fixtures > 0);
  const lines = [
    `coverage: ${reached.length} of ${coverage.length} hook${coverage.length === 1 ? '' : 's'} reached`,
  ];
  for (const c of reached) {
    const outcomes = Object.entries(c.outcomes)
      .map(([o, n]) => `${o} ${n}`)
      .join(', ');
    lines.push(
      `  ${c.event} ${c.id} (${c.type}, ${c.scope}): ${c.fixtures} fixture${c.fixtures === 1 ? '' : 's'}; ${outcomes}`,
    );
  }
  for (const c of coverage.filter((c) => c.fixtures === 0))
    lines.push(`  not reached: ${c.event} ${c.id} (${c.type}, ${c.scope})`);
  return lines;
}

/** The report's end: warnings, coverage, and the closing `N passed, N failed` line. */
function printSummary(report: FixtureReport): void {
  for (const d of report.diagnostics) out(`warning: ${formatDiagnostic(d)}`);
  out('');
  for (const line of coverageLines(report.coverage)) out(line);
  out('');
  out(`${report.passed} passed, ${report.failed} failed`);
}

function reportJson(report: FixtureReport, extra: Record<string, unknown> = {}): string {
  const ok = report.results.length > 0 && report.failed === 0;
  return JSON.stringify(
    {
      ok,
      ...extra,
      passed: report.passed,
      failed: report.failed,
      results: report.results,
      coverage: { hooks: report.coverage, unreached: report.coverage.filter((c) => c.fixtures === 0) },
      diagnostics: report.diagnostics satisfies readonly Diagnostic[],
    },
    null,
    2,
  );
}

const exitCode = (report: FixtureReport) => (report.results.length > 0 && report.failed === 0 ? 0 : 1);

export async function runPackTest(dir: string, flags: TestFlags): Promise<number> {
  const { testPack } = await import('../../fixture-runner/test-pack.js');
  const json = flags.json === true;
  const report = await testPack(dir, {
    root: flags.root,
    ...(flags.allowHttpUrl === undefined ? {} : { allowedHttpHookUrls: flags.allowHttpUrl }),
    onStart: (info) => {
      if (json) return;
      const copy = info.locked
        ? ''
        : ' (not locked yet, or edited since: testing a locked copy of its files)';
      out(`testing ${info.dir} at ${info.digest}${copy}`);
      if (info.fixtureCount === 0)
        out(`no fixtures in ${info.dir}/tests/*.json: write some (see \`hookwarden pack test --help\`)`);
    },
    onResult: (r) => {
      if (!json) out(fixtureLine(r));
    },
  });
  if (json) {
    out(reportJson(report, { dir: report.dir, digest: report.digest, locked: report.locked }));
    return exitCode(report);
  }
  printSummary(report);
  return exitCode(report);
}

export async function runConfigTest(
  config: string,
  fixturePaths: string[],
  flags: TestFlags,
): Promise<number> {
  const { readFixturePaths } = await import('../../packs/read-fixtures.js');
  const { runFixtures } = await import('../../fixture-runner/run-fixtures.js');
  const read = await readFixturePaths(fixturePaths);
  if (!read.ok) throw new UsageError(`invalid fixtures:\n  - ${read.problems.join('\n  - ')}`);
  const json = flags.json === true;
  if (!json)
    out(`testing ${config} with ${read.fixtures.length} fixture${read.fixtures.length === 1 ? '' : 's'}`);
  const report = await runFixtures({
    executor: {
      config: [config],
      policy: flags.policy ?? [],
      ...(flags.allowHttpUrl === undefined ? {} : { allowedHttpHookUrls: flags.allowHttpUrl }),
      ...(flags.root === undefined ? {} : { root: flags.root }),
      ...(flags.packCache === undefined ? {} : { remotePacks: { cacheDir: flags.packCache } }),
    },
    fixtures: read.fixtures,
    onResult: (r) => {
      if (!json) out(fixtureLine(r));
    },
  });
  if (json) out(reportJson(report, { config }));
  else printSummary(report);
  return exitCode(report);
}
