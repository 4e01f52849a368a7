// Contained process mode (sandbox/native/spawn-contain.c): every process-mode hook starts in new
// user, PID, mount and IPC namespaces with a /proc of its own. It sees and signals only its own
// processes, never the spawn server, hookwarden or another hook; a hook that is root cannot undo it;
// it has no capabilities. Where the kernel refuses the namespaces (here: for real, a user namespace
// whose user.max_user_namespaces is 0), it runs uncontained and says so, and a policy that requires
// containment fails closed. Run as root and as nobody.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { DispatchResult } from '../../../src/index.js';
import { FifoFeed, FifoLines, mkfifo } from '../../helpers/fifo.js';
import { hooksOn, input, sharedTempDir, tempDir, withExecutor, writeFile } from '../../helpers/fixture.js';
import { processesWithEnv, spawnServers } from '../../helpers/processes.js';

const ROOT = process.getuid?.() === 0;
const RUN_AS = ROOT ? ([undefined, 'nobody'] as const) : ([undefined] as const);
const HOST = fileURLToPath(new URL('../../fixtures/hosts/dispatch-once.mjs', import.meta.url));

const sharedDir = () => sharedTempDir('hw-contain-');

const feeds: FifoFeed[] = [];
afterAll(() => {
  for (const f of feeds) f.close();
});

/** One hook's report: what it printed as additionalContext, decoded. */
const report = (r: DispatchResult) => Buffer.from(r.additionalContext ?? '', 'base64').toString('utf8');
const asReport = (script: string) =>
  `out=$( { ${script} ; } 2>&1 | base64 -w0); printf '{"additionalContext":"%s"}' "$out"`;

describe.each(RUN_AS)('a contained hook (runAs %s)', (runAs) => {
  const as = runAs === undefined ? {} : { runAs };

  it('sees only its own processes, and can neither signal nor read the spawn server, hookwarden or another hook', async () => {
    const dir = sharedDir();
    const started = mkfifo(dir, 'started');
    const release = mkfifo(dir, 'release');
    for (const f of [started, release]) chmodSync(f, 0o666);
    const lines = new FifoLines(started);
    const feed = new FifoFeed(release);
    feeds.push(feed);
    const marker = randomUUID();
    // Hook B waits; hook A then tries everything against B, the server and this process.
    const waiting = {
      name: 'b',
      command: `echo started > ${started}; read line < ${release}; echo '{}'`,
      env: { HW_MARK: marker },
      ...as,
    };
    const probe = {
      name: 'a',
      command: `${asReport(
        'echo "pids: $(ls /proc | grep -E "^[0-9]+$" | tr "\\n" " ")"; for t in $TARGETS; do kill -0 $t 2>/dev/null && echo "signal $t: yes" || echo "signal $t: no"; cat /proc/$t/environ >/dev/null 2>&1 && echo "read $t: yes" || echo "read $t: no"; done; echo "self: $$ parent: $PPID"',
      )}; kill -9 -1 2>/dev/null; exit 0`,
      ...as,
    };
    await withExecutor(
      { config: hooksOn('BeforeTool', [waiting]), root: dir, limits: { killGraceMs: 200 } },
      async (hwB) => {
        const b = hwB.dispatch('BeforeTool', input({ toolName: 'Bash' }));
        expect(await lines.next()).toBe('started');
        const bPids = processesWithEnv('HW_MARK', marker).map((p) => p.pid);
        const servers = spawnServers(process.pid).map((s) => s.pid);
        expect(bPids.length).toBeGreaterThan(0);
        expect(servers.length).toBeGreaterThan(0);
        const targets = [...bPids, ...servers, process.pid];
        const a = await withExecutor(
          {
            config: hooksOn('BeforeTool', [{ ...probe, env: { TARGETS: targets.join(' ') } }]),
            root: dir,
          },
          (hwA) => hwA.dispatch('BeforeTool', input({ toolName: 'Bash' })),
        );
        expect(a.hooks[0]).toMatchObject({ outcome: 'proceed', containment: 'contained' });
        const text = report(a);
        const pids = (/pids: (.*)/.exec(text)?.[1] ?? '').trim().split(' ').map(Number);
        // Its own shell, its command substitution's processes: the first few numbers of its namespace.
        expect(pids.length).toBeGreaterThan(0);
        expect(Math.max(...pids)).toBeLessThan(50);
        for (const t of targets) {
          expect(text).toContain(`signal ${t}: no`);
          expect(text).toContain(`read ${t}: no`);
        }
        expect(text).toContain('self: 1 parent: 0');
        // `kill -9 -1` reached nothing outside: B still runs and answers.
        expect(processesWithEnv('HW_MARK', marker).length).toBeGreaterThan(0);
        feed.send();
        expect((await b).hooks[0]).toMatchObject({ outcome: 'proceed', containment: 'contained' });
      },
    );
  });

  it('cannot undo it, even as root: no unmount, no new /proc of the host, no setns, no capabilities', async () => {
    const dir = sharedDir();
    const script = writeFile(
      `${dir}/undo.sh`,
      [
        'count() { ls /proc | grep -cE "^[0-9]+$"; }',
        'echo "start $(count)"',
        'umount /proc 2>/dev/null; umount -l /proc 2>/dev/null; echo "umount $(count)"',
        'mount -t proc proc /mnt 2>/dev/null && echo "mounted: $(ls /mnt | grep -cE "^[0-9]+$")" || echo "mount refused"',
        'unshare -Urm sh -c \'umount /proc 2>/dev/null; umount -l /proc 2>/dev/null; ls /proc | grep -cE "^[0-9]+$"\' 2>/dev/null | sed "s/^/nested-umount /"',
        'unshare -Urmpf sh -c \'mount -t proc proc /proc && ls /proc | grep -cE "^[0-9]+$"\' 2>/dev/null | sed "s/^/nested-proc /"',
        'nsenter -t 1 -m -p true 2>/dev/null && echo "nsenter ok" || echo "nsenter refused"',
        'grep -E "^Cap(Eff|Prm|Bnd|Amb)" /proc/self/status | tr "\\t\\n" "  "; echo',
        'grep NoNewPrivs /proc/self/status',
        '( echo 1 > /proc/sys/kernel/printk ) 2>/dev/null && echo "sysctl written" || echo "sysctl refused"',
        'echo "end $(count)"',
      ].join('\n'),
    );
    const hook = { name: 'undo', command: asReport(`sh ${script}`), ...as };
    const result = await withExecutor({ config: hooksOn('BeforeTool', [hook]), root: dir }, (hw) =>
      hw.dispatch('BeforeTool', input({ toolName: 'Bash' })),
    );
    expect(result.hooks[0]).toMatchObject({ outcome: 'proceed', containment: 'contained' });
    const text = report(result);
    const n = (label: string) => Number(new RegExp(`^${label} (\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN);
    // Only its own few processes, before and after every attempt.
    for (const label of ['start', 'umount', 'end']) expect(n(label)).toBeLessThan(10);
    expect(text).toContain('mount refused');
    expect(text).toContain('nsenter refused');
    expect(text).toContain('sysctl refused');
    // A nested user namespace may be refused (root's own uid needs CAP_SETFCAP to map); when it is
    // made, what it sees is still the hook's own.
    if (/^nested-umount/m.test(text)) expect(n('nested-umount')).toBeLessThan(10);
    if (/^nested-proc/m.test(text)) expect(n('nested-proc')).toBeLessThan(10);
    expect(text).toMatch(/CapEff:\s+0000000000000000/);
    expect(text).toMatch(/CapPrm:\s+0000000000000000/);
    expect(text).toMatch(/CapBnd:\s+0000000000000000/);
    expect(text).toMatch(/NoNewPrivs:\s+1/);
  });
});

describe.runIf(ROOT)('a hook that runs as nobody in a private directory', () => {
  it('is not run, and the error says which directory is closed and what to do; a shared root works', async () => {
    const parent = tempDir('hw-private-'); // 0700, as /root is
    const root = `${parent}/project`;
    mkdirSync(root, { mode: 0o755 });
    const config = hooksOn('BeforeTool', [{ name: 'n', command: 'id -u', runAs: 'nobody' }]);
    // A project file's runAs is the policy's to grant (docs/security.md, the grant table).
    const policy = [{ grants: { project: { runAs: true } } }];
    const closed = await withExecutor({ config, root, policy }, (hw) => hw.dispatch('BeforeTool', input()));
    expect(closed.hooks[0]).toMatchObject({
      outcome: 'error',
      error: {
        code: 'isolation_unavailable',
        message: expect.stringContaining(`${parent} is mode 700`),
      },
    });
    const open = hooksOn('BeforeTool', [{ name: 'n', command: 'echo {}', runAs: 'nobody' }]);
    const shared = await withExecutor({ config: open, root: sharedDir(), policy }, (hw) =>
      hw.dispatch('BeforeTool', input()),
    );
    expect(shared.hooks[0]).toMatchObject({ outcome: 'proceed', containment: 'contained' });
  });
});

describe('containment on a host that refuses it', () => {
  /** One dispatch in a host whose kernel refuses new user namespaces (max_user_namespaces 0). */
  async function refusingHost(options: Record<string, unknown>): Promise<{
    result: DispatchResult;
    warnings: string[];
  }> {
    const host = spawn(
      'unshare',
      [
        '--user',
        '--map-root-user',
        '/bin/sh',
        '-c',
        'echo 0 > /proc/sys/user/max_user_namespaces && exec "$0" "$@"',
        process.execPath,
        HOST,
        JSON.stringify(options),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
    );
    let out = '';
    host.stdout.on('data', (d) => {
      out += d;
    });
    const code = await new Promise((r) => host.on('close', r));
    expect(code).toBe(0);
    return JSON.parse(out) as { result: DispatchResult; warnings: string[] };
  }

  const base = {
    root: '/tmp',
    event: 'BeforeTool',
    input: input({ toolName: 'Bash', toolInput: { command: 'rm -rf /srv' } }),
  };

  it('runs process-mode hooks uncontained, says so in the record and warns once', async () => {
    const guard = { name: 'guard', command: 'grep -q "rm -rf" && { echo blocked >&2; exit 2; }; exit 0' };
    const { result, warnings } = await refusingHost({
      ...base,
      config: hooksOn('BeforeTool', [guard, { ...guard, name: 'guard2' }]),
    });
    expect(result).toMatchObject({ decision: 'deny', decidedBy: 'guard' });
    expect(result.hooks[0]).toMatchObject({
      containment: 'uncontained',
      uncontainedReason: expect.stringMatching(/clone: No space left on device/),
    });
    expect(warnings.filter((w) => w.includes('uncontained'))).toHaveLength(1);
  });

  it('fails closed where a policy requires containment (limits.minIsolation "contained")', async () => {
    const { result } = await refusingHost({
      ...base,
      config: hooksOn('BeforeTool', [{ name: 'project', command: 'exit 0' }]),
      policy: {
        limits: { minIsolation: 'contained' },
        hooks: { BeforeTool: [{ hooks: [{ name: 'guard', command: 'exit 0' }] }] },
      },
    });
    expect(result).toMatchObject({ decision: 'deny', decidedBy: 'guard' });
    expect(result.hooks[0]).toMatchObject({
      outcome: 'error',
      error: {
        code: 'isolation_unavailable',
        message: expect.stringMatching(/containment is not available on this host: clone: No space left/),
      },
    });
  });

  it('a hook asking for "contained" fails closed there; the same config contains it here', async () => {
    const config = hooksOn('BeforeTool', [
      { name: 'c', command: 'exit 0', isolation: 'contained', onError: 'deny' },
    ]);
    const { result } = await refusingHost({ ...base, config });
    expect(result).toMatchObject({ decision: 'deny' });
    expect(result.hooks[0]).toMatchObject({ error: { code: 'isolation_unavailable' } });
    const here = await withExecutor({ config, root: '/tmp' }, (hw) =>
      hw.dispatch('BeforeTool', input({ toolName: 'Bash' })),
    );
    expect(here.hooks[0]).toMatchObject({ outcome: 'proceed', containment: 'contained' });
  });
});

describe('HOOKWARDEN_CONTAINMENT=off', () => {
  it('runs process-mode hooks uncontained with the reason, and refuses a hook that requires containment', async () => {
    process.env.HOOKWARDEN_CONTAINMENT = 'off';
    try {
      const config = hooksOn('BeforeTool', [
        { name: 'plain', command: 'exit 0' },
        { name: 'strict', command: 'exit 0', isolation: 'contained' },
      ]);
      const result = await withExecutor({ config, root: '/tmp' }, (hw) =>
        hw.dispatch('BeforeTool', input({ toolName: 'Bash' })),
      );
      expect(result.hooks[0]).toMatchObject({
        outcome: 'proceed',
        containment: 'uncontained',
        uncontainedReason: 'containment is turned off (HOOKWARDEN_CONTAINMENT=off)',
      });
      expect(result.hooks[1]).toMatchObject({
        outcome: 'error',
        error: {
          code: 'isolation_unavailable',
          message: expect.stringContaining('HOOKWARDEN_CONTAINMENT=off'),
        },
      });
    } finally {
      delete process.env.HOOKWARDEN_CONTAINMENT;
    }
  });
});
