// `hookwarden doctor`: which isolation levels work on this host, and for each that does not, why
// and how to fix it. Every check runs the real thing (a hook through the real runner or lane).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createExecutor } from '../../executor/executor.js';
import { defaultScratchBase } from '../../pool/scratch.js';
import { nativeClientCommand } from '../claude-code/daemon/client-command.js';
import { daemonSockets } from '../claude-code/daemon/control.js';
import { daemonDir, daemonDirProblem } from '../claude-code/daemon/places.js';
import type { Check } from './doctor-check.js';
import { commandChecks } from './doctor-sandbox.js';

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

/** Whether `claude-code install` can write hookwarden-client, and where its daemons live. */
function clientCheck(): Check {
  const name = 'Claude Code client';
  const client = nativeClientCommand();
  if ('why' in client)
    return {
      name,
      ok: false,
      detail: `\`claude-code install\` writes the Node adapter command (every hook call starts Node, ~60-80 ms): ${client.why}`,
      fix: 'install a C compiler (apt-get install -y gcc) and run `npm run build`, then `claude-code install` again',
    };
  const probe = spawnSync(
    client.path,
    ['--print-socket', process.execPath, process.argv[1] ?? '', 'claude-code', '--config', '/'],
    { encoding: 'utf8' },
  );
  if (probe.status !== 0)
    return {
      name,
      ok: false,
      detail: `${client.path} does not run (${probe.error?.message ?? probe.stderr.trim()})`,
      fix: 'run `npm run build` again',
    };
  const dir = daemonDir();
  const problem = existsSync(dir) ? daemonDirProblem(dir) : undefined;
  if (problem !== undefined)
    return {
      name,
      ok: false,
      detail: `hookwarden-client is built, but every call runs in process: ${problem}`,
      fix: `remove ${dir} (a daemon creates it again, mode 700) or set XDG_RUNTIME_DIR to a directory of yours`,
    };
  return {
    name,
    ok: true,
    detail: `hookwarden-client (${client.path}): hook calls go to a per-user daemon, sockets in ${dir} (${daemonSockets(dir).length} now)`,
  };
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
      : checks.every((c) => c.ok || c.name === 'Claude Code client')
        ? 'all isolation levels work here; the Claude Code client does not (see above)\n'
        : 'some isolation levels do not work here (see above)\n',
  );
  return ok ? 0 : 1;
}
