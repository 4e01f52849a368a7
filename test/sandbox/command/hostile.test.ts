// The hostile-hook corpus (test/fixtures/hostile/), run in `process` isolation contained (the
// default where the host allows it), uncontained (the fallback, here forced with
// HOOKWARDEN_CONTAINMENT=off), `namespace` isolation as the spawn server builds it, and the same
// namespace plan built by bubblewrap (HOOKWARDEN_NAMESPACE=bwrap, where it is installed: the
// cross-check; both must give the same outcome). For each: the host survives, the outcome and
// decision follow the failure table (docs/semantics.md#failures), nothing leaks, and no process survives the
// dispatch, except what docs/security.md documents as not contained in that mode.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { namespaceSupport } from '../../../sandbox/command/namespace-profile.js';
import type { DispatchResult } from '../../../src/index.js';
import { hooksOn, input, sharedCopy, tempDir, withExecutor } from '../../helpers/fixture.js';
import { processesWithEnv } from '../../helpers/processes.js';

// A copy every user can enter: some hooks run as nobody, and the checkout may be private.
const HOSTILE = sharedCopy(fileURLToPath(new URL('../../fixtures/hostile/', import.meta.url)));
const bwrap = namespaceSupport('bwrap');
const required = process.env.HOOKWARDEN_REQUIRE_NAMESPACE === '1';
if (!bwrap.ok && !required) {
  // Visible, not silent: outside CI a host without bubblewrap runs without the cross-check.
  console.warn(`hostile corpus: the bubblewrap cross-check is not run here (${bwrap.reason})`);
}
const MODES = (['contained', 'uncontained', 'namespace', 'bwrap'] as const).filter(
  (m) => m !== 'bwrap' || bwrap.ok || required,
);
type Mode = (typeof MODES)[number];
/** Both builders of namespace sandboxes. */
const inNamespace = (mode: Mode) => mode === 'namespace' || mode === 'bwrap';
/** The config's isolation for a mode, and the variables its executor is created under. */
const isolationOf = (mode: Mode) => (inNamespace(mode) ? 'namespace' : 'process');
const modeEnv = (mode: Mode): Record<string, string> =>
  mode === 'uncontained'
    ? { HOOKWARDEN_CONTAINMENT: 'off' }
    : mode === 'bwrap'
      ? { HOOKWARDEN_NAMESPACE: 'bwrap' }
      : {};

/** Runs fn with the mode's variables set (read when the executor's command lane is made). */
async function underMode<T>(mode: Mode, fn: () => Promise<T>): Promise<T> {
  const env = modeEnv(mode);
  for (const [k, v] of Object.entries(env)) process.env[k] = v;
  try {
    return await fn();
  } finally {
    for (const k of Object.keys(env)) delete process.env[k];
  }
}

process.env.HW_HOSTILE_HOST_TOKEN = 'host-secret-token-value';
afterAll(() => {
  delete process.env.HW_HOSTILE_HOST_TOKEN;
});

async function run(
  mode: Mode,
  script: string,
  spec: Record<string, unknown> = {},
): Promise<{ result: DispatchResult; marker: string }> {
  const marker = randomUUID();
  const hook = {
    name: script.replace('.sh', ''),
    command: `./${script}`,
    isolation: isolationOf(mode),
    timeoutMs: 2000,
    inheritEnv: ['HW_HOSTILE_HOST_TOKEN'],
    ...spec,
    env: { HW_MARK: marker, ...(spec.env as Record<string, string> | undefined) },
  };
  const result = await underMode(mode, () =>
    withExecutor(
      { config: { hooks: { BeforeTool: [{ hooks: [hook] }] } }, root: HOSTILE, limits: { killGraceMs: 200 } },
      (hw) => hw.dispatch('BeforeTool', input({ toolName: 'Bash' })),
    ),
  );
  expect(result.hooks[0]?.containment).toBe(
    inNamespace(mode) ? 'namespace' : mode === 'contained' ? 'contained' : 'uncontained',
  );
  return { result, marker };
}

const HOST = fileURLToPath(new URL('../../fixtures/hosts/dispatch-once.mjs', import.meta.url));
/** runAs "nobody" needs hookwarden to run as root. */
const RUN_AS = process.getuid?.() === 0 ? ([undefined, 'nobody'] as const) : ([undefined] as const);

/**
 * Runs read-parent-environ.sh from a separate host process started with a canary secret in its
 * environment (a variable set in a running Node process never shows in its /proc/<pid>/environ, so
 * the canary must be there from the host's exec). Returns what the hook read, decoded.
 */
async function readHostEnviron(
  mode: Mode,
  runAs: 'nobody' | undefined,
  canary: string,
): Promise<{ result: DispatchResult; hostPid: number; dump: string; marker: string }> {
  const marker = randomUUID();
  const hook = {
    name: 'read-parent-environ',
    command: './read-parent-environ.sh',
    isolation: isolationOf(mode),
    timeoutMs: 5000,
    inheritEnv: ['HW_CANARY_API_TOKEN'],
    env: { HW_MARK: marker },
    ...(runAs === undefined ? {} : { runAs }),
  };
  const options = {
    config: hooksOn('BeforeTool', [hook]),
    root: HOSTILE,
    event: 'BeforeTool',
    input: input({ toolName: 'Bash' }),
  };
  const host = spawn(process.execPath, [HOST, JSON.stringify(options)], {
    env: { ...process.env, ...modeEnv(mode), HW_CANARY_API_TOKEN: canary },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  host.stdout.on('data', (d) => {
    out += d;
  });
  const code = await new Promise((r) => host.on('close', r));
  expect(code).toBe(0);
  const { result } = JSON.parse(out) as { result: DispatchResult };
  const dump = Buffer.from(result.additionalContext ?? '', 'base64').toString('utf8');
  return { result, hostPid: host.pid!, dump, marker };
}

/** The ancestors the hook walked through: pid → whether their environment was readable. */
const ancestors = (dump: string) =>
  new Map([...dump.matchAll(/^pid (\d+) (readable|unreadable) .*$/gm)].map((m) => [Number(m[1]), m[2]]));

/** The ancestor just below the host (the hook's starter): its executable and environment. */
function starter(dump: string, hostPid: number): { exe: string; readable: boolean; environ: string[] } {
  const entries = dump.split(/^(?=pid \d+ )/m).filter((e) => e.startsWith('pid '));
  const host = entries.findIndex((e) => e.startsWith(`pid ${hostPid} `));
  const [head = '', ...vars] = (entries[host - 1] ?? '').split('\n');
  const [, , state = '', exe = ''] = head.split(' ');
  return { exe, readable: state === 'readable', environ: vars.filter((v) => v !== '') };
}

async function survivors(marker: string, waitMs = 3000): Promise<number[]> {
  const until = Date.now() + waitMs;
  for (;;) {
    const left = processesWithEnv('HW_MARK', marker).map((p) => p.pid);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Kernel state a root hook could write (tunables, module parameters), where this host has it. */
const KERNEL_KNOBS = [
  '/sys/kernel/mm/transparent_hugepage/enabled',
  '/sys/kernel/mm/transparent_hugepage/defrag',
  '/sys/module/printk/parameters/time',
  '/sys/module/printk/parameters/ignore_loglevel',
  '/proc/sys/vm/swappiness',
  '/proc/sys/kernel/printk_ratelimit',
].filter((f) => existsSync(f));

/** A freezer cgroup of the test's own (v1 freezer.state, or v2 cgroup.freeze): the file to try. */
function testFreezer(): { file: string; dispose(): void } | undefined {
  for (const [root, file] of [
    ['/sys/fs/cgroup/freezer', 'freezer.state'],
    ['/sys/fs/cgroup', 'cgroup.freeze'],
    ['/sys/fs/cgroup/unified', 'cgroup.freeze'],
  ] as const) {
    const dir = join(root, `hw-test-${randomUUID()}`);
    try {
      mkdirSync(dir);
    } catch {
      continue;
    }
    if (existsSync(join(dir, file))) return { file: join(dir, file), dispose: () => rmdirSync(dir) };
    rmdirSync(dir);
  }
  return undefined;
}

const kernelState = (files: string[]) => files.map((f) => [f, readFileSync(f, 'utf8')]);

describe.each(MODES)('hostile hooks (%s isolation)', (mode) => {
  it.runIf(mode !== 'uncontained' && process.getuid?.() === 0)(
    'as root, writes no kernel tunable, module parameter or cgroup file (its own pids limit included)',
    async () => {
      const freezer = testFreezer();
      const files = [...KERNEL_KNOBS, ...(freezer === undefined ? [] : [freezer.file])];
      const before = kernelState(files);
      try {
        // It writes back what each file holds: the host is unchanged whatever happens.
        const { result, marker } = await run(mode, 'write-kernel.sh', { env: { KNOBS: files.join(' ') } });
        const seen = new Map(
          String(result.additionalContext)
            .split(' ')
            .map((e) => e.split('=') as [string, string]),
        );
        for (const f of files)
          expect([f, seen.get(f)]).toEqual([f, expect.stringMatching(/^(refused|absent)$/)]);
        expect([...seen.values()]).not.toContain('wrote');
        expect(files.length).toBeGreaterThan(0);
        expect(await survivors(marker)).toEqual([]);
        expect(kernelState(files)).toEqual(before);
      } finally {
        freezer?.dispose();
      }
    },
  );

  it('a fork bomb times out and no process of it survives', async () => {
    const { result, marker } = await run(mode, 'fork-bomb.sh', { timeoutMs: 1500 });
    expect(result.decision).toBe('passthrough');
    expect(result.hooks[0]).toMatchObject({ outcome: 'timeout', error: { code: 'timeout' } });
    expect(await survivors(marker, 5000)).toEqual([]);
  });

  it('a fork bomb is a deny when the hook is fail-closed', async () => {
    const { result, marker } = await run(mode, 'fork-bomb.sh', { timeoutMs: 800, onError: 'deny' });
    expect(result).toMatchObject({ decision: 'deny', decidedBy: 'fork-bomb' });
    expect(await survivors(marker, 5000)).toEqual([]);
  });

  it(
    inNamespace(mode)
      ? 'cannot reach the network'
      : 'can reach the loopback network (not contained in process mode)',
    async () => {
      const received: string[] = [];
      const server = createServer((s) => s.on('data', (d) => received.push(String(d))));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const port = (server.address() as { port: number }).port;
      try {
        const { result, marker } = await run(mode, 'exfiltrate.sh', { env: { PORT: String(port) } });
        // Process mode: the bytes the hook sent arrive (wait for them, bounded). Namespace mode: its
        // connect failed (it says so), so nothing can have arrived.
        const until = Date.now() + 5000;
        while (mode !== 'namespace' && !received.join('').includes(marker) && Date.now() < until)
          await new Promise((r) => setTimeout(r, 10));
        if (inNamespace(mode)) {
          expect(result.additionalContext).toBe('refused');
          expect(received).toEqual([]);
        } else {
          expect(result.additionalContext).toBe('connected');
          expect(received.join('')).toContain(`exfiltrated-${marker}`);
        }
        expect(await survivors(marker)).toEqual([]);
      } finally {
        server.close();
      }
    },
  );

  it(
    inNamespace(mode)
      ? 'cannot read host secrets outside its root'
      : 'reads files outside its root (not contained in process mode)',
    async () => {
      const dir = tempDir('hw-secret-');
      const secretFile = join(dir, 'secret.txt');
      writeFileSync(secretFile, 'TOP-SECRET-CONTENT', { mode: 0o600 });
      const { result, marker } = await run(mode, 'read-secrets.sh', { env: { SECRET_FILE: secretFile } });
      const json = JSON.stringify(result);
      // The host's own secret-looking variables never reach a hook, in either mode.
      expect(json).not.toContain('host-secret-token-value');
      if (inNamespace(mode)) {
        expect(result.additionalContext).toBe('unreadable');
        // No machinery inside: PID 1 is the hook itself (its own environment), or under bubblewrap
        // bwrap's init, forked with an empty environment.
        const initEnv = String(result.mutatedToolInput?.initEnv);
        if (mode === 'namespace') expect(initEnv).toContain(`HW_MARK=${marker}`);
        else expect(initEnv).toBe('');
      } else expect(result.additionalContext).toBe('TOP-SECRET-CONTENT');
      expect(await survivors(marker)).toEqual([]);
    },
  );

  for (const runAs of RUN_AS) {
    const who = runAs === undefined ? '' : ' as nobody';
    it(`cannot read hookwarden's environment through /proc${who}`, async () => {
      const canary = `canary-${randomUUID()}`;
      const { result, hostPid, dump, marker } = await readHostEnviron(mode, runAs, canary);
      expect(result.hooks[0]).toMatchObject({ outcome: 'proceed' });
      const seen = ancestors(dump);
      expect(seen.size).toBeGreaterThan(0);
      // The name filter keeps the canary out of the hook's own environment in every mode.
      expect(dump).not.toContain(canary);
      if (mode !== 'uncontained') {
        // A /proc of its own: the host's processes are not there at all, only the hook's own.
        expect(seen.has(hostPid)).toBe(false);
        expect([...seen.keys()].every((pid) => pid < 100)).toBe(true);
      } else {
        // Beside the host: the spawn server and hookwarden are there, and their environments are
        // not readable (neither process is dumpable, and the hook has no capabilities).
        expect(starter(dump, hostPid)).toMatchObject({ exe: '?', readable: false });
        expect(seen.get(hostPid)).toBe('unreadable');
      }
      expect(await survivors(marker)).toEqual([]);
    });
  }

  it(
    inNamespace(mode)
      ? 'cannot write outside its scratch directory'
      : 'can write outside its root (not contained in process mode)',
    async () => {
      const dir = tempDir('hw-target-');
      const target = join(dir, 'pwned.txt');
      const { result, marker } = await run(mode, 'write-outside.sh', { env: { TARGET: target } });
      if (inNamespace(mode)) {
        expect(result.additionalContext).toBe('outside=refused inside=refused');
        expect(existsSync(target)).toBe(false);
      } else {
        expect(result.additionalContext).toBe('outside=wrote inside=wrote');
        expect(readFileSync(target, 'utf8')).toBe('pwned\n');
      }
      expect(await survivors(marker)).toEqual([]);
    },
  );

  it(
    mode !== 'uncontained'
      ? 'leaves no daemon behind, even a setsid one'
      : 'kills double-forked leftovers; a setsid daemon escapes (not contained uncontained)',
    async () => {
      const { result, marker } = await run(mode, 'daemonize.sh');
      expect(result.hooks[0]!.outcome).toBe('proceed');
      const left = await survivors(marker, 2000);
      if (mode !== 'uncontained') expect(left).toEqual([]);
      else {
        // Only the `setsid sleep 60` survives; the test cleans it up.
        const cmdlines = left.map((pid) =>
          readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ').trim(),
        );
        for (const pid of left) process.kill(pid, 'SIGKILL');
        expect(cmdlines).toEqual(['sleep 60']);
      }
    },
  );

  it('a hook that closes stdout early and keeps running times out and is killed', async () => {
    const { result, marker } = await run(mode, 'close-stdout.sh', { timeoutMs: 500 });
    expect(result.hooks[0]).toMatchObject({ outcome: 'timeout', error: { code: 'timeout' } });
    expect(await survivors(marker)).toEqual([]);
  });

  it('binary, invalid UTF-8 stdout is invalid output (fail-open: skipped)', async () => {
    const { result, marker } = await run(mode, 'binary-stdout.sh');
    expect(result.decision).toBe('passthrough');
    expect(result.hooks[0]).toMatchObject({ outcome: 'error', error: { code: 'invalid_output' } });
    expect(await survivors(marker)).toEqual([]);
  });

  it('a million-level nested JSON on stdout hits the output cap, or the depth limit under a larger cap', async () => {
    const capped = await run(mode, 'deep-json.sh');
    expect(capped.result.hooks[0]).toMatchObject({ outcome: 'limit', error: { code: 'output_limit' } });
    const deep = await run(mode, 'deep-json.sh', { maxOutputBytes: 4 * 1024 * 1024 });
    expect(deep.result.hooks[0]).toMatchObject({
      outcome: 'error',
      error: { code: 'invalid_output', message: expect.stringMatching(/nested deeper/) },
    });
    expect(await survivors(capped.marker)).toEqual([]);
    expect(await survivors(deep.marker)).toEqual([]);
  });

  it('a stderr flood is an output limit, never a host OOM', async () => {
    const before = process.memoryUsage().rss;
    const { result, marker } = await run(mode, 'huge-stderr.sh');
    expect(result.hooks[0]).toMatchObject({
      outcome: 'limit',
      error: { code: 'output_limit', message: expect.stringContaining('stderr') },
    });
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
    expect(await survivors(marker)).toEqual([]);
  });

  it('cannot inject keystrokes into a terminal (TIOCSTI): it has no controlling terminal', async () => {
    const { result, marker } = await run(mode, 'tiocsti.sh');
    expect(result.additionalContext).toMatch(/^refused: /);
    expect(await survivors(marker)).toEqual([]);
  });
});

describe.each(MODES.filter(inNamespace))('namespace sandboxes (%s)', () => {
  it('`writable: true` lets a namespace hook write its root', async () => {
    const root = tempDir('hw-writable-');
    mkdirSync(join(root, 'sub'));
    const { result } = await withExecutor(
      {
        config: {
          hooks: {
            BeforeTool: [
              {
                hooks: [
                  { isolation: 'namespace', writable: true, command: "echo ok > sub/out && echo '{}'" },
                ],
              },
            ],
          },
        },
        root,
      },
      async (hw) => ({ result: await hw.dispatch('BeforeTool', input({ toolName: 'Bash' })) }),
    );
    expect(result.hooks[0]!.outcome).toBe('proceed');
    expect(readFileSync(join(root, 'sub/out'), 'utf8')).toBe('ok\n');
  });
});
