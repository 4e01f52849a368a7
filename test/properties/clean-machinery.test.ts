// Trust invariant 5, as a property: the sandbox's own machinery runs in a clean environment. While
// generated command hooks (random variables in `env` and `inheritEnv`, every isolation, as root and
// as nobody) are running, blocked on a FIFO, the test reads /proc/<pid>/environ and cmdline of the
// spawn server and of every process below it: no token of a hook's variables (or of the host
// variables it inherits) is in the environment or arguments of the spawn server or hw-exec,
// nor in any process's arguments, and every hook process does hold its own variables. Wasm hooks
// carrying generated variables too run while the command hooks wait: nothing of theirs reaches the
// host or the module (clean-wasm.ts).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findNativeHelper } from '../../sandbox/command/native-helper.js';
import { closedToNobody } from '../../sandbox/command/nobody-access.js';
import { createExecutor, type Executor } from '../../src/index.js';
import { FifoFeed, FifoLines, mkfifo } from '../helpers/fifo.js';
import { spawnServers } from '../helpers/processes.js';
import { checkProbes, wasmEnvHooksArb, wasmHookSpec, writeProbe } from './clean-wasm.js';
import { type EnvHook, envHooksArb, TOKEN } from './gen/env.js';
import { exeOf, read, tree } from './proc-tree.js';
import { checkProperty, propertyRun } from './tier.js';

const HOST_VARS = 3;
const SPAWN_SERVER = fileURLToPath(new URL('../../dist/native/hw-spawn-server', import.meta.url));
const HW_EXEC = fileURLToPath(new URL('../../dist/native/hw-exec', import.meta.url));
const MACHINERY = new Set([SPAWN_SERVER, HW_EXEC, '/usr/bin/bwrap', '/usr/bin/prlimit', '/usr/bin/env']);

let root: string;
let project: string;
/**
 * One executor per way hooks start: the spawn server (contained where asked), the spawn server with
 * containment turned off (HOOKWARDEN_CONTAINMENT=off), and the Node spawn path (hw-exec, prlimit:
 * HOOKWARDEN_SPAWN_SERVER=off). Both settings are read when the executor's launcher is made.
 */
const PATHS = {
  server: {},
  uncontained: { HOOKWARDEN_CONTAINMENT: 'off' },
  node: { HOOKWARDEN_SPAWN_SERVER: 'off' },
  // The spawn server, the variables a hook inherits given by the caller (dispatch's `env`, as the
  // Claude Code daemon passes its client's) rather than read from this process.
  caller: {},
};
type StartPath = keyof typeof PATHS;

/** The value of host variable `i` a hook inheriting it must see: this process's, or the caller's. */
const hostValue = (path: StartPath, i: number) =>
  `hw${path === 'caller' ? 'caller' : 'host'}${i}x${process.pid}`;

/** The environment a caller passes: this process's, with its own values of the host variables. */
function callerEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (let i = 0; i < HOST_VARS; i++) env[`HW_PROP_HOST_${i}`] = hostValue('caller', i);
  return env;
}
const executors = new Map<StartPath, Executor>();

async function executorFor(which: StartPath): Promise<Executor> {
  const path = which === 'caller' ? 'server' : which;
  const had = executors.get(path);
  if (had !== undefined) return had;
  const settings = Object.entries(PATHS[path]);
  for (const [k, v] of settings) process.env[k] = v;
  try {
    // The project file's inheritEnv, runAs and long deadline are the policy's to grant (grants.ts).
    const grant = {
      inheritEnv: Array.from({ length: HOST_VARS }, (_, i) => `HW_PROP_HOST_${i}`),
      runAs: true,
      timeoutMs: 60_000,
    };
    const policy = [{ grants: { project: grant } }];
    const hw = await createExecutor({ config: [project], policy, root, onWarning: () => {} });
    // A first hook makes the launcher (and reads the settings) now.
    executors.set(path, hw);
    return hw;
  } finally {
    for (const [k] of settings) delete process.env[k];
  }
}
let started: FifoLines;
/** Lines the hooks wrote to the started FIFO, read by one loop that never stops (no reader is left behind). */
const arrived: string[] = [];
let waker: (() => void) | undefined;
function wake(): void {
  const w = waker;
  waker = undefined;
  w?.();
}
let release: FifoFeed;
let cases = 0;
/** Processes read, by executable: the summary says the property read the machinery. */
const SEEN = new Map<string, number>();

beforeAll(async () => {
  root = mkdtempSync('/dev/shm/hw-prop-env-');
  chmodSync(root, 0o755); // hooks run as nobody too
  project = join(root, 'hooks.json');
  writeFileSync(project, '{}');
  const s = mkfifo(root, 'started');
  const r = mkfifo(root, 'release');
  chmodSync(s, 0o666);
  chmodSync(r, 0o666);
  started = new FifoLines(s);
  release = new FifoFeed(r);
  void (async () => {
    for (;;) {
      arrived.push(await started.next());
      wake();
    }
  })();
  // The host's variables a hook may inherit: set before the machinery starts (it must not take them).
  for (let i = 0; i < HOST_VARS; i++) process.env[`HW_PROP_HOST_${i}`] = hostValue('server', i);
});

afterAll(async () => {
  process.stdout.write(
    `invariant 5: processes read, by executable: ${JSON.stringify(Object.fromEntries(SEEN))}\n`,
  );
  for (const hw of executors.values()) await hw.close();
  for (let i = 0; i < HOST_VARS; i++) delete process.env[`HW_PROP_HOST_${i}`];
  rmSync(root, { recursive: true, force: true });
});

function hookSpec(h: EnvHook, key: string): Record<string, unknown> {
  return {
    type: 'command',
    name: key,
    // Announces itself, then waits for the test: its processes and the machinery's stay alive meanwhile.
    command: `echo ${key} > '${join(root, 'started')}'; read line < '${join(root, 'release')}'`,
    env: Object.fromEntries(h.env),
    inheritEnv: h.inherit.map((i) => `HW_PROP_HOST_${i}`),
    isolation: h.isolation,
    ...(h.nobody ? { runAs: 'nobody' } : {}),
    timeoutMs: 60_000,
  };
}

/** Each value gets a token unique to the case, the hook (`kind` tells wasm hooks apart) and the variable. */
const tokened = (generated: EnvHook[], n: number, kind: string): EnvHook[] =>
  generated.map((h, i) => ({
    ...h,
    env: h.env.map(([name, value], v) => [name, value.replace(TOKEN, `hwtok${n}${kind}${i}x${v}q`)] as const),
  }));

/** This process's environment (whose worker threads run the JS and wasm hooks) holds none of `secrets`. */
function hostEnvClean(secrets: readonly string[]): void {
  for (const [name, value] of Object.entries(process.env))
    for (const s of secrets)
      if (value?.includes(s))
        throw new Error(`this process's environment holds ${JSON.stringify(s)} (in ${name})`);
}

async function check([generated, path, generatedWasm]: [EnvHook[], StartPath, EnvHook[]]): Promise<void> {
  const n = cases++;
  const hooks = tokened(generated, n, 'x');
  const wasmHooks = tokened(generatedWasm, n, 'w');
  const keys = hooks.map((_, i) => `h${n}x${i}`);
  const wasmKeys = wasmHooks.map((_, i) => `w${n}x${i}`);
  const wasmSpecs = await Promise.all(
    wasmHooks.map(async (h, i) =>
      wasmHookSpec(h, wasmKeys[i]!, await writeProbe(root, wasmKeys[i]!), (v) => `HW_PROP_HOST_${v}`),
    ),
  );
  // The command hooks run at startup; the wasm hooks at resume, dispatched while the command hooks wait.
  const groups = [
    { matcher: 'startup', hooks: hooks.map((h, i) => hookSpec(h, keys[i]!)) },
    ...(wasmSpecs.length > 0 ? [{ matcher: 'resume', hooks: wasmSpecs }] : []),
  ];
  writeFileSync(project, JSON.stringify({ hooks: { SessionStart: groups } }));
  const hw = await executorFor(path);
  const reloaded = await hw.reload();
  if (!reloaded.ok) throw new Error(reloaded.reason);
  const dbg = (m: string) =>
    process.env.HW_PROP_DEBUG === '1' && process.stderr.write(`inv5 case ${n} ${path}: ${m}\n`);
  dbg(JSON.stringify(hooks.map((h) => [h.isolation, h.nobody, h.inherit, h.env.map((e) => e[0])])));
  const hookSecrets = [
    ...hooks.flatMap((h, i) => h.env.map((_, v) => `hwtok${n}x${i}x${v}q`)),
    ...wasmHooks.flatMap((h, i) => h.env.map((_, v) => `hwtok${n}w${i}x${v}q`)),
    hostValue('caller', 0),
  ];
  const secrets = [
    ...hookSecrets,
    ...[...Array(HOST_VARS).keys()].flatMap((i) => [hostValue('server', i), hostValue('caller', i)]),
  ];
  let ended = 0;
  let finished = false;
  const dispatch = hw.dispatch(
    'SessionStart',
    { sessionId: `env${n}`, source: 'startup' },
    {
      // A hook that ended (one that could not start among them) is not waited for.
      onHookTiming: () => {
        ended++;
        wake();
      },
      ...(path === 'caller' ? { env: callerEnv() } : {}),
    },
  );
  const end = () => {
    finished = true;
    wake();
  };
  void dispatch.then(end, end);
  // Every hook announces itself, unless it ends first (a hook that could not start).
  const up = new Set<string>();
  while (up.size + ended < hooks.length && !finished) {
    await new Promise<void>((resolve) => {
      waker = resolve;
      if (arrived.length > 0) resolve();
    });
    for (const line of arrived.splice(0)) up.add(line.trim());
    dbg(`up ${[...up]} ended ${ended} finished ${finished}`);
  }
  try {
    // The spawn servers and hw-exec are this process's children: every process below it is read.
    if (path !== 'node' && spawnServers(process.pid).length === 0)
      throw new Error('no spawn server is running while the hooks run');
    // The host process (whose worker threads run the JS hooks and the dispatch) gains none of a hook's variables.
    hostEnvClean(hookSecrets);
    if (wasmSpecs.length > 0) {
      const options = path === 'caller' ? { env: callerEnv() } : {};
      const w = await hw.dispatch('SessionStart', { sessionId: `wasm${n}`, source: 'resume' }, options);
      for (const rec of w.hooks)
        if (rec.outcome !== 'proceed') throw new Error(`${rec.id}: ${rec.outcome} ${rec.error?.message}`);
      checkProbes(w.additionalContext, wasmKeys, secrets);
      hostEnvClean(hookSecrets);
    }
    const env = new Map<number, string>();
    for (const pid of tree(process.pid).slice(1)) {
      const environ = read(`/proc/${pid}/environ`);
      const cmdline = read(`/proc/${pid}/cmdline`) ?? '';
      const exe = exeOf(pid);
      SEEN.set(exe, (SEEN.get(exe) ?? 0) + 1);
      if (MACHINERY.has(exe)) {
        if (environ === undefined) throw new Error(`${exe} (pid ${pid}): its environ is unreadable`);
        for (const s of secrets) {
          if (environ?.includes(s))
            throw new Error(`${exe} (pid ${pid}) holds ${JSON.stringify(s)} in its environment`);
        }
      }
      for (const s of secrets)
        if (cmdline.includes(s))
          throw new Error(`${exe} (pid ${pid}) has ${JSON.stringify(s)} in its cmdline`);
      if (!MACHINERY.has(exe) && environ !== undefined) env.set(pid, environ);
    }
    // Each hook that started holds its own variables (the property reads the right processes).
    // environ is bytes (read as latin1): a variable as the kernel holds it, UTF-8 encoded.
    const entry = (name: string, value: string) => Buffer.from(`${name}=${value}`, 'utf8').toString('latin1');
    for (const [i, h] of hooks.entries()) {
      if (!up.has(keys[i]!)) continue;
      const first = entry(h.env[0]![0], h.env[0]![1]);
      const own = [...env.values()].find((e) => e.split('\0').includes(first));
      if (own === undefined)
        throw new Error(
          `hook ${keys[i]} is running, but no process below the spawn server holds its variables`,
        );
      for (const [name, value] of h.env) expect(own.split('\0')).toContain(entry(name, value));
      for (const v of h.inherit)
        expect(own.split('\0')).toContain(entry(`HW_PROP_HOST_${v}`, hostValue(path, v)));
    }
  } finally {
    // Every started hook is released and the dispatch settles before the case ends, failed or not.
    for (let i = 0; i < up.size; i++) release.send();
    await dispatch.catch(() => undefined);
  }
  const r = await dispatch;
  dbg(JSON.stringify(r.hooks.map((h) => [h.id, h.outcome, h.error?.code, h.error?.message?.slice(0, 200)])));
  for (const [i, rec] of r.hooks.entries()) {
    // Containment off, or hooks started through Node, refuse a hook that asks for it, and Node starts
    // no namespace sandbox (only the spawn server builds them): documented, a typed error.
    const refused =
      ((path === 'uncontained' || path === 'node') && hooks[i]?.isolation === 'contained') ||
      (path === 'node' && hooks[i]?.isolation === 'namespace')
        ? rec.error?.code === 'isolation_unavailable'
        : false;
    // Started through Node as nobody from a checkout nobody cannot enter (a clone under a 0700
    // directory): refused with a message naming the closed directory (node-launcher-nobody.test.ts).
    const closedCheckout =
      path === 'node' &&
      hooks[i]?.nobody === true &&
      HW_EXEC_CLOSED &&
      rec.error?.message?.includes('which nobody cannot enter') === true;
    if (rec.outcome !== 'proceed' && !refused && !closedCheckout)
      throw new Error(`${rec.id}: ${rec.outcome} ${rec.error?.code} ${rec.error?.message}`);
  }
}

/** Whether this checkout's hw-exec is out of nobody's reach (a clone under a 0700 directory). */
const HW_EXEC_CLOSED = (() => {
  const helper = findNativeHelper('hw-exec');
  return helper !== undefined && closedToNobody(dirname(helper)) !== undefined;
})();

const run = propertyRun('invariant 5 (clean machinery)', 200, 60);

it('no hook variable reaches the environment or arguments of the spawn server or hw-exec', {
  timeout: run.timeoutMs,
}, async () => {
  const paths = fc.constantFrom<StartPath>('server', 'server', 'uncontained', 'node', 'caller');
  const arb = fc.tuple(envHooksArb(HOST_VARS), paths, wasmEnvHooksArb(HOST_VARS));
  await checkProperty('invariant 5', run, arb, check);
});
