// docs/security.md, invariant 5: the sandbox's own machinery runs in a clean environment; only the hook
// process sees the hook's variables. Each stage of the machinery (the spawn server, or on the Node spawn path
// hw-exec or prlimit and env(1); bwrap when it builds the namespace sandbox, the tests' cross-check)
// is wiretapped by a program that records the environment and argv it was started with, then execs
// the real one. A namespace sandbox is built by the spawn server itself: there is no other stage.
// Real processes, real bwrap, a real LD_PRELOAD library.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildHookEnv } from '../../../sandbox/command/env.js';
import { ProcessGroups } from '../../../sandbox/command/kill-group.js';
import type { Launcher } from '../../../sandbox/command/launch.js';
import { namespacePlan } from '../../../sandbox/command/namespace-plan.js';
import { namespaceSupport, sandboxEnv } from '../../../sandbox/command/namespace-profile.js';
import { executable, findNativeHelper } from '../../../sandbox/command/native-helper.js';
import { NodeSpawnLauncher } from '../../../sandbox/command/node-launcher.js';
import { runCommand } from '../../../sandbox/command/run-command.js';
import { SpawnServer } from '../../../sandbox/command/spawn-server.js';
import { findWrapper } from '../../../sandbox/command/wrapper.js';
import type { CommandTask } from '../../../src/contract/command-task.js';
import { commandTask, sh } from '../../helpers/command-task.js';
import { hooksOn, input, withExecutor } from '../../helpers/fixture.js';
import { dispatchInLeakyHost } from '../../helpers/host.js';

const required = process.env.HOOKWARDEN_REQUIRE_NAMESPACE === '1';
const REAL_BWRAP = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'].find(executable);
const TAPS = mkdtempSync(join(tmpdir(), 'hw-taps-'));
const RECORDS = join(TAPS, 'records');

const TAP_SOURCE = fileURLToPath(new URL('../../fixtures/native/tap.c', import.meta.url));

/** A program that records how it was started (environ, cmdline) under RECORDS, then execs `real`. */
function tap(stage: string, real: string): string {
  const path = join(TAPS, stage);
  const defines = [`-DRECORDS="${RECORDS}"`, `-DSTAGE="${stage}"`, `-DREAL="${real}"`];
  const cc = spawnSync('cc', ['-O2', '-Wall', '-Werror', ...defines, '-o', path, TAP_SOURCE], {
    encoding: 'utf8',
  });
  if (cc.status !== 0) throw new Error(`cannot build the ${stage} tap: ${cc.stderr}`);
  return path;
}

/** Descriptors from `ls -l /proc/self/fd` output, without ls's own directory handle. */
function listedFds(lsOutput: string): string[] {
  return [...lsOutput.matchAll(/ (\d+) -> (.*)$/gm)]
    .filter((m) => !/^\/proc\/\d+\/fd$/.test(m[2]!))
    .map((m) => m[1]!)
    .sort();
}

const hwExec = findWrapper('hw-exec');
const prlimit = findWrapper('prlimit');
const envBin = prlimit?.kind === 'prlimit' ? prlimit.env : '/usr/bin/env';
const serverPath = findNativeHelper('hw-spawn-server');
const tappedServer = tap('spawn-server', serverPath!);
const tappedHwExec = tap('hw-exec', hwExec!.path);
const tappedPrlimit = { path: tap('prlimit', prlimit!.path), env: tap('env', envBin) };
/** Each way of starting a hook, its machinery tapped; a fresh launcher per test (one server start). */
const LAUNCHES = [
  {
    name: 'the spawn server',
    kind: 'spawn-server',
    launcher: (): Launcher => new SpawnServer(tappedServer),
    stages: { process: ['spawn-server'], namespace: ['spawn-server'], bwrap: ['bwrap', 'spawn-server'] },
  },
  {
    name: 'Node spawn + hw-exec',
    kind: 'hw-exec',
    launcher: (): Launcher => new NodeSpawnLauncher({ kind: 'hw-exec', path: tappedHwExec }),
    stages: { process: ['hw-exec'], namespace: [], bwrap: [] },
  },
  {
    name: 'Node spawn + prlimit(1)',
    kind: 'prlimit',
    launcher: (): Launcher => new NodeSpawnLauncher({ kind: 'prlimit', ...tappedPrlimit }),
    stages: { process: ['env', 'prlimit'], namespace: [], bwrap: [] },
  },
] as const;
/** For tasks refused before anything starts. */
const untapped = new SpawnServer(serverPath!);
// The bwrap stage is tapped through HOOKWARDEN_BWRAP (a trusted path: root's, in a 0700 directory).
if (REAL_BWRAP !== undefined) process.env.HOOKWARDEN_BWRAP = tap('bwrap', REAL_BWRAP);
const MODES = (['process', 'namespace', 'bwrap'] as const).filter(
  (m) => m !== 'bwrap' || REAL_BWRAP !== undefined || required,
);
type Mode = (typeof MODES)[number];
const isolationOf = (mode: Mode) => (mode === 'process' ? 'process' : 'namespace');
/** The knobs' settings for a mode: who builds its namespace sandboxes (bwrap probed here, before the tests). */
const SETTINGS = {
  process: {},
  namespace: { namespace: namespaceSupport('native') },
  bwrap: { namespace: namespaceSupport('bwrap') },
};
const settingsOf = (mode: Mode) => SETTINGS[mode];

const groups = new ProcessGroups();
afterEach(() => groups.killAll());
afterAll(async () => {
  groups.dispose();
  await untapped.close();
  delete process.env.HOOKWARDEN_BWRAP;
  rmSync(TAPS, { recursive: true, force: true });
});

function records(): Map<string, { environ: string; cmdline: string[] }[]> {
  const out = new Map<string, { environ: string; cmdline: string[] }[]>();
  for (const f of readdirSync(RECORDS).filter((n) => n.endsWith('.environ'))) {
    const [stage] = f.split('.');
    const base = join(RECORDS, f.replace(/\.environ$/, ''));
    const cmdline = readFileSync(`${base}.cmdline`, 'utf8').split('\0').slice(0, -1);
    const list = out.get(stage!) ?? [];
    list.push({ environ: readFileSync(`${base}.environ`, 'utf8'), cmdline });
    out.set(stage!, list);
  }
  return out;
}

const task = (extra: Partial<CommandTask>) => commandTask(sh('true'), extra);

/** The descriptors a child of this process inherits when nothing closes them (fd 3+ leaked to us). */
function plainChildFds(): string[] {
  return spawnSync('/bin/sh', ['-c', 'ls /proc/$$/fd'], { encoding: 'utf8', env: {} })
    .stdout.trim()
    .split('\n');
}

describe.each(MODES)('the machinery’s environment (%s)', (mode) => {
  // Only the spawn server builds namespace sandboxes: through Node a namespace hook is not run.
  describe.each(LAUNCHES.filter((l) => mode === 'process' || l.kind === 'spawn-server'))(
    'through $name',
    (start) => {
      it('every stage starts with an empty environment; the hook gets exactly its own variables and no extra descriptor', async () => {
        rmSync(RECORDS, { recursive: true, force: true });
        mkdirSync(RECORDS);
        const needle = `needle-${randomUUID()}`;
        const t = task({
          isolation: isolationOf(mode),
          program: {
            kind: 'shell',
            command: 'cat /proc/$$/environ; printf "\\n--fds--\\n"; exec ls -l /proc/self/fd',
          },
          env: {
            HOOK_EVENT: 'BeforeTool',
            HW_MARK: randomUUID(),
            HW_NEEDLE: needle,
            SPACED: 'a b  c',
            EMPTY: '',
            LOOKS_LIKE_AN_OPTION: '--bind / /host',
            MULTI_LINE: 'one\ntwo',
            UNICODE: 'é ✓',
          },
        });
        const launcher = start.launcher();
        const r = await runCommand(t, groups, undefined, launcher, settingsOf(mode)).finally(() =>
          launcher.close(),
        );
        expect(r).toMatchObject({ kind: 'exited', exitCode: 0, stderr: '' });
        if (r.kind !== 'exited') return;
        const [environ, fdList] = r.stdout.split('\n--fds--\n') as [string, string];

        // The hook: exactly buildHookEnv's variables, with the paths a namespace sandbox moves (HOME,
        // TMPDIR) where it has them (bubblewrap adds PWD, the cwd).
        const built = buildHookEnv(t);
        if (!built.ok) throw new Error(built.message);
        const inside = mode === 'process' ? built.env : sandboxEnv(built.env, namespacePlan(t));
        const expected = { ...inside, ...(mode === 'bwrap' ? { PWD: t.cwd } : {}) };
        const seen = Object.fromEntries(
          environ
            .split('\0')
            .slice(0, -1)
            .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
        );
        expect(seen).toEqual(expected);

        // No descriptor beyond stdio: fd 3 (the channel) is closed; the spawn server and hw-exec also
        // close what this process inherited, prlimit cannot (docs: residual exposure of the fallback).
        const fds = listedFds(fdList);
        const inherited = plainChildFds().filter((fd) => Number(fd) > 2);
        expect(fds).toEqual(
          start.kind !== 'prlimit' ? ['0', '1', '2'] : ['0', '1', '2', ...inherited].sort(),
        );

        // Every stage of the machinery: an empty environment, and no hook value in its argv, except
        // the prlimit fallback's env(1) assignments in process mode (documented).
        const stages = records();
        expect([...stages.keys()].sort()).toEqual(start.stages[mode]);
        for (const [stage, runs] of stages) {
          expect(runs, stage).toHaveLength(1);
          expect(runs[0]!.environ, `${stage}'s environment`).toBe('');
          const argvHasValue = runs[0]!.cmdline.some((a) => a.includes(needle));
          expect(argvHasValue, `${stage}'s argv`).toBe(start.kind === 'prlimit' && mode === 'process');
        }
      });
    },
  );
});

describe('a hook’s LD_PRELOAD', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hw-preload-'));
  const markers = join(dir, 'markers');
  const root = join(dir, 'repo');
  const so = join(root, 'evil.so');

  beforeAll(() => {
    mkdirSync(markers);
    mkdirSync(root);
    const src = join(dir, 'evil.c');
    // The constructor records which program loaded it.
    writeFileSync(
      src,
      `#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void evil(void) {
  char path[512], exe[256] = {0};
  snprintf(path, sizeof path, "${markers}/loaded-by-%d", (int)getpid());
  if (readlink("/proc/self/exe", exe, sizeof exe - 1) < 0) exe[0] = '?';
  FILE *f = fopen(path, "w");
  if (f) { fputs(exe, f); fclose(f); }
}
`,
    );
    const cc = spawnSync('cc', ['-shared', '-fPIC', '-o', so, src], { encoding: 'utf8' });
    expect(cc.status, cc.stderr).toBe(0);
    // The library works: a plain program started with it runs the constructor.
    spawnSync('/bin/true', { env: { LD_PRELOAD: so } });
    expect(readdirSync(markers)).toHaveLength(1);
    rmSync(markers, { recursive: true });
    mkdirSync(markers);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(MODES)('in a config is refused at load and never loads anywhere (%s)', async (m) => {
    const mode = isolationOf(m);
    for (const env of [
      { LD_PRELOAD: './evil.so' },
      { LD_PRELOAD: so },
      { LD_AUDIT: so },
      { ld_preload: so },
    ]) {
      const { result, warnings } = await withExecutor(
        { config: hooksOn('BeforeTool', [{ command: 'true', isolation: mode, env }]), root },
        async (hw, warnings) => ({
          result: await hw.dispatch('BeforeTool', input({ toolName: 'Bash' })),
          warnings,
        }),
      );
      expect(result.hooks).toEqual([]);
      const name = Object.keys(env)[0]!;
      expect(warnings).toEqual([
        expect.stringMatching(
          new RegExp(
            `hooks\\.BeforeTool\\[0\\]\\.hooks\\[0\\]\\.env\\.${name}: "${name}" is read by the dynamic loader`,
          ),
        ),
      ]);
    }
    expect(readdirSync(markers)).toEqual([]);
  });

  it.each(MODES)(
    'in a task that skipped the loader is refused by the runner, explicit or inherited (%s)',
    async (m) => {
      const mode = isolationOf(m);
      const explicit = await runCommand(
        task({ isolation: mode, env: { HOOK_EVENT: 'x', LD_PRELOAD: so } }),
        groups,
        undefined,
        untapped,
      );
      expect(explicit).toMatchObject({
        kind: 'spawn_failed',
        message: expect.stringContaining('"LD_PRELOAD" is read by'),
      });
      process.env.LD_PRELOAD = so;
      try {
        const inherited = await runCommand(
          task({ isolation: mode, inheritEnv: ['LD_PRELOAD'] }),
          groups,
          undefined,
          untapped,
        );
        expect(inherited).toMatchObject({
          kind: 'spawn_failed',
          message: expect.stringContaining('inheritEnv: "LD_PRELOAD"'),
        });
      } finally {
        delete process.env.LD_PRELOAD;
      }
      const nul = await runCommand(
        task({ isolation: mode, env: { A: `x\0LD_PRELOAD=${so}` } }),
        groups,
        undefined,
        untapped,
      );
      expect(nul).toMatchObject({ kind: 'spawn_failed', message: expect.stringContaining('NUL') });
      expect(readdirSync(markers)).toEqual([]);
    },
  );
});

describe('descriptors the host inherited', () => {
  it.each(MODES)('never reach a hook started through the spawn server (%s)', async (m) => {
    const options = {
      config: hooksOn('BeforeTool', [
        // exit 2: the listing comes back as the deny reason
        { isolation: isolationOf(m), command: 'ls -l /proc/self/fd >&2; exit 2' },
      ]),
      root: tmpdir(),
      event: 'BeforeTool',
      input: input({ toolName: 'Bash' }),
    };
    const { result, plainFds } = await dispatchInLeakyHost(options);
    expect(plainFds).toContain('250');
    expect(result.decision).toBe('deny');
    expect(listedFds(result.reason ?? '')).toEqual(['0', '1', '2']);
  });
});
