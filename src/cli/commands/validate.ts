// `hookwarden validate <config>…`: every problem with its file and JSON path; exit 1 on errors
// (and on warnings with --strict). The fixtures of every pack that verified are run (unless
// --no-tests): a pack whose fixtures fail does not do what its signature promises.
import { formatDiagnostic } from '../../config/diagnostics.js';
import type { PackStatus } from '../../config/pin-loader.js';
import { validateConfig } from '../../executor/validate.js';
import { UsageError } from '../usage-error.js';

export interface ValidateFlags {
  policy?: string[];
  allowHttpUrl?: string[];
  root?: string;
  strict?: boolean;
  json?: boolean;
  tests?: boolean;
  packCache?: string;
}

interface PackTests {
  readonly dir: string;
  readonly passed: number;
  readonly failed: number;
  readonly failing: readonly string[];
  /** Why the fixtures could not run (an invalid fixture file, the pack changed meanwhile). */
  readonly error?: string;
}

async function runPackFixtures(packs: readonly PackStatus[]): Promise<PackTests[]> {
  const loaded = packs.filter((p) => p.refusal === undefined && p.dir !== undefined);
  if (loaded.length === 0) return [];
  const { testPack } = await import('../../fixture-runner/test-pack.js');
  const out: PackTests[] = [];
  for (const dir of new Set(loaded.map((p) => p.dir!))) {
    try {
      const r = await testPack(dir);
      if (r.results.length === 0) continue;
      const failing = r.results.filter((x) => x.status !== 'pass').map((x) => x.name);
      out.push({ dir, passed: r.passed, failed: r.failed, failing });
    } catch (err) {
      out.push({ dir, passed: 0, failed: 0, failing: [], error: (err as Error).message });
    }
  }
  return out;
}

export async function runValidate(files: string[], flags: ValidateFlags): Promise<number> {
  if (files.length === 0 && (flags.policy ?? []).length === 0)
    throw new UsageError('validate needs a config file or --policy <file>; see `hookwarden validate --help`');
  const report = await validateConfig({
    config: files,
    policy: flags.policy ?? [],
    ...(flags.root === undefined ? {} : { root: flags.root }),
    ...(flags.packCache === undefined ? {} : { remotePacks: { cacheDir: flags.packCache } }),
    ...(flags.allowHttpUrl === undefined ? {} : { allowedHttpHookUrls: flags.allowHttpUrl }),
  });
  const packTests = flags.tests === false ? [] : await runPackFixtures(report.packs);
  const testErrors = packTests.filter((t) => t.failed > 0 || t.error !== undefined).length;
  // An installed agent's file or its copy: what runs outside hookwarden, what never runs.
  const { routingFindings } = await import('../adapter/routing-findings.js');
  const routing = (await Promise.all(files.map((f) => routingFindings(f)))).flat();
  const warnings = report.warningCount + routing.filter((r) => r.severity === 'warning').length;
  const failed =
    report.errorCount > 0 ||
    report.policyFailures.length > 0 ||
    testErrors > 0 ||
    (flags.strict === true && warnings > 0);
  if (flags.json === true) {
    process.stdout.write(
      `${JSON.stringify({ ok: !failed, ...report, warningCount: warnings, routing, packTests }, null, 2)}\n`,
    );
    return failed ? 1 : 0;
  }
  for (const d of report.diagnostics) process.stdout.write(`${d.severity}: ${formatDiagnostic(d)}\n`);
  for (const r of routing) process.stdout.write(`${r.severity}: ${r.file}: ${r.message}\n`);
  for (const p of report.policyFailures)
    process.stdout.write(`error: ${p} → deny-capable events will deny\n`);
  for (const h of report.httpHooks)
    process.stdout.write(
      `http hook: ${h.file}: ${h.path}: ${h.event} → POST ${h.url} (allowed by "${h.allowedBy}")\n`,
    );
  for (const p of report.packs) {
    if (p.refusal !== undefined) continue;
    const signed = p.verifiedBy === undefined ? '' : `, signed by ${p.verifiedBy}`;
    const from = p.url === undefined ? '' : ` (from ${p.url})`;
    process.stdout.write(
      `pack: "${p.name}" ${p.version} (${p.scope}) verified: ${p.dir}${from}, ${p.digest}${signed}\n`,
    );
    const t = packTests.find((x) => x.dir === p.dir);
    if (t?.error !== undefined)
      process.stdout.write(`error: pack ${p.dir}: its fixtures cannot run: ${t.error}\n`);
    else if (t !== undefined && t.failed > 0)
      process.stdout.write(
        `error: pack ${p.dir}: ${t.failed} of ${t.passed + t.failed} fixtures fail (${t.failing.map((n) => JSON.stringify(n)).join(', ')}); run \`hookwarden pack test ${p.dir}\`\n`,
      );
    else if (t !== undefined) process.stdout.write(`  fixtures: ${t.passed} passed\n`);
  }
  const errors = report.errorCount + testErrors;
  const summary = `${report.hookCount} hook${report.hookCount === 1 ? '' : 's'} loaded; ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
  process.stdout.write(`${failed ? 'invalid' : 'ok'}: ${summary}\n`);
  return failed ? 1 : 0;
}
