// `hookwarden serve --check …`: everything `serve` would load with the same flags — the config and
// policy files, every tenant, the packs they pin, the JS hooks compiled, the auth file and whom its
// tokens name — judged without starting anything. Every problem is printed with its file and JSON
// path; the exit status is 1 when any would change what runs (an error, a skipped entry, a policy
// failure, a tenant failing closed, an auth file the server would refuse), so a deploy can be gated
// on it: `hookwarden serve --check -c … -p … --auth … && systemctl reload hookwarden`.
import { formatDiagnostic } from '../../config/diagnostics.js';
import { validateConfig } from '../../executor/validate.js';
import { AuthFileError, readAuthFile } from '../../server/auth-file.js';
import { executorOptions, type ServeFlags } from './serve.js';

/** Each line of the report, and whether it is a problem (the exit status). */
function authLines(
  path: string | undefined,
  tenants: ReadonlySet<string>,
): { line: string; problem: boolean }[] {
  if (path === undefined) return [];
  try {
    const entries = readAuthFile(path);
    const named = new Set(entries.flatMap((e) => ('tenant' in e ? [e.tenant] : [])));
    return [
      { line: `auth: ${path}: ${entries.length} token${entries.length === 1 ? '' : 's'}`, problem: false },
      // A token for a tenant nobody configured runs the policy's hooks only: probably a typo.
      ...[...named]
        .filter((t) => !tenants.has(t))
        .map((t) => ({
          line: `warning: ${path}: a token speaks for tenant "${t}", which the configuration does not declare (its dispatches run the policy's hooks only)`,
          problem: false,
        })),
    ];
  } catch (err) {
    if (!(err instanceof AuthFileError)) throw err;
    return [{ line: `error: --auth: ${err.message}`, problem: true }];
  }
}

export async function runServeCheck(flags: ServeFlags): Promise<number> {
  const o = executorOptions(flags);
  const report = await validateConfig({
    config: o.config ?? [],
    policy: o.policy ?? [],
    ...(o.root === undefined ? {} : { root: o.root }),
    ...(o.allowedHttpHookUrls === undefined ? {} : { allowedHttpHookUrls: o.allowedHttpHookUrls }),
  });
  const lines: { line: string; problem: boolean }[] = [];
  for (const d of report.diagnostics)
    lines.push({
      line: `${d.severity}: ${formatDiagnostic(d)}`,
      problem: d.severity === 'error' || d.skipped,
    });
  for (const p of report.policyFailures)
    lines.push({ line: `error: ${p} → every deny-capable event of every tenant will deny`, problem: true });
  for (const [tenant, problems] of Object.entries(report.tenantFailures))
    lines.push({
      line: `error: tenant "${tenant}" fails closed (its deny-capable events deny; other tenants are not affected): ${problems.join('; ')}`,
      problem: true,
    });
  lines.push(...authLines(flags.auth, new Set(report.tenants)));
  for (const l of lines) process.stdout.write(`${l.line}\n`);
  const problems = lines.filter((l) => l.problem).length;
  const tenants = report.tenants.length;
  process.stdout.write(
    `${problems === 0 ? 'ok' : 'failed'}: ${report.hookCount} hooks, ${tenants} tenant${tenants === 1 ? '' : 's'}; ${problems} problem${problems === 1 ? '' : 's'}, ${report.warningCount} warning${report.warningCount === 1 ? '' : 's'}\n`,
  );
  return problems === 0 ? 0 : 1;
}
