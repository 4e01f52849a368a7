// `hookwarden doctor`: which isolation levels work on this host, and for each that does not, why
// and how to fix it. Every check runs the real thing (a hook through the real runner or lane).
import { tmpdir } from 'node:os';
import { createExecutor } from '../../executor/executor.js';
import { defaultScratchBase } from '../../pool/scratch.js';
import type { Check } from './doctor-check.js';
import { clientCheck } from './doctor-client.js';
import { installChecks } from './doctor-installs.js';
import { commandChecks } from './doctor-sandbox.js';

/** The checks that are isolation levels (the others: the client, the agents' hook files). */
const ISOLATION = /^(?!hookwarden-client$)(?!.* hooks$)/;

async function jsCheck(): Promise<Check> {
  const executor = await createExecutor({
    config: {
      hooks: {
        SessionStart: [
          { hooks: [{ type: 'js', code: "export default () => ({ additionalContext: 'ok' })" }] },
        ],
      },
    },
    limits: { jsThreads: 1 },
    onWarning: () => {},
  });
  try {
    const r = await executor.dispatch('SessionStart', {
      sessionId: 'doctor',
      cwd: '/',
      timestamp: new Date().toISOString(),
    });
    const ok = r.additionalContext === 'ok';
    return ok
      ? { name: 'JS hooks (QuickJS)', ok, detail: 'QuickJS isolates on Piscina worker threads' }
      : {
          name: 'JS hooks (QuickJS)',
          ok,
          detail: r.hooks[0]?.error?.message ?? 'no answer',
          fix: 'reinstall: npm ci && npm run build',
        };
  } catch (err) {
    return {
      name: 'JS hooks (QuickJS)',
      ok: false,
      detail: (err as Error).message,
      fix: 'reinstall: npm ci && npm run build',
    };
  } finally {
    await executor.close();
  }
}

export async function runDoctor(flags: { json?: boolean }): Promise<number> {
  const base = defaultScratchBase();
  const checks = [
    ...(await commandChecks()),
    await jsCheck(),
    {
      name: 'scratch directories',
      ok: true,
      detail: `under ${base}${base === tmpdir() ? ' (not a tmpfs: slower)' : ' (tmpfs)'}`,
    },
    clientCheck(),
    ...(await installChecks()),
  ];
  const ok = checks.every((c) => c.ok);
  if (flags.json === true) {
    process.stdout.write(`${JSON.stringify({ ok, node: process.version, checks }, null, 2)}\n`);
    return ok ? 0 : 1;
  }
  process.stdout.write(`hookwarden doctor — Node ${process.version}, ${process.platform}/${process.arch}\n`);
  for (const c of checks) {
    process.stdout.write(`${c.ok ? '✓' : '✗'} ${c.name.padEnd(22)} ${c.detail}\n`);
    if (c.fix !== undefined) process.stdout.write(`  ${' '.repeat(22)} fix: ${c.fix}\n`);
  }
  process.stdout.write(
    ok
      ? 'all isolation levels work here\n'
      : checks.every((c) => c.ok || !ISOLATION.test(c.name))
        ? "all isolation levels work here; see above for the client and the agents' hooks\n"
        : 'some isolation levels do not work here (see above)\n',
  );
  return ok ? 0 : 1;
}
