// Bounded processes (docs/security.md, "The process cap"): a hook's processes and threads stop at its
// cap inside its sandbox, in contained and namespace mode (and the bubblewrap cross-check), as root;
// while one tenant's bomb holds its cap, the host and another tenant keep forking. The record says
// which mechanism holds it and the bound. Real processes, real threads (a C program the test builds),
// FIFOs for every wait.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namespaceSupport } from '../../../sandbox/command/namespace-profile.js';
import { serverCheck } from '../../../sandbox/command/server-check.js';
import type { DispatchResult } from '../../../src/index.js';
import { FifoFeed, FifoLines, mkfifo } from '../../helpers/fifo.js';
import { input, sharedTempDir, withExecutor, writeFile } from '../../helpers/fixture.js';
import { settleMarked } from '../../helpers/processes.js';

/** Far above any cap: without one, the bomb gets them all (bounded, so a broken cap spares the host). */
const WANTED = 700;

const BOMB = `#!/bin/sh
# Forks sleepers until the cap stops it (in a child shell, which dies at the first refused fork),
# counts its sandbox's processes with builtins only (no fork left to spend), says so, and waits.
sh -c 'i=0; while [ $i -lt ${WANTED} ]; do sleep 60 & i=$((i+1)); done' 2>/dev/null
n=0; for p in /proc/[0-9]*; do n=$((n+1)); done
echo "ready $n" > "$STARTED"
read line < "$RELEASE"
printf '{"additionalContext":"%s"}\\n' "$n"
`;

const THREADS = `#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
static void *wait_(void *a) { (void)a; pause(); return NULL; }
int main(void) {
  pthread_attr_t at; pthread_attr_init(&at); pthread_attr_setstacksize(&at, 65536);
  int n = 0; pthread_t t;
  while (n < ${WANTED} && pthread_create(&t, &at, wait_, NULL) == 0) n++;
  printf("{\\"additionalContext\\":\\"%d\\"}\\n", n + 1);
  fflush(stdout);
  _exit(0);
}
`;

const bwrap = namespaceSupport('bwrap');
const cgroups = serverCheck()?.processCap.contained === 'pids-cgroup';
// bubblewrap makes its own PID namespace: only a pids cgroup (which the spawn server puts it in) caps it.
const MODES = (['contained', 'namespace', 'bwrap'] as const).filter(
  (m) => m !== 'bwrap' || (bwrap.ok && cgroups),
);
const modeEnv = (mode: (typeof MODES)[number]): Record<string, string> =>
  mode === 'bwrap' ? { HOOKWARDEN_NAMESPACE: 'bwrap' } : {};

function root(): { dir: string; started: string; release: string; threads: string | undefined } {
  const dir = sharedTempDir('hw-cap-');
  writeFile(join(dir, 'bomb.sh'), BOMB, 0o755);
  writeFile(join(dir, 'threads.c'), THREADS);
  const cc = spawnSync('cc', ['-O1', '-pthread', '-o', join(dir, 'threads'), join(dir, 'threads.c')]);
  return {
    dir,
    started: mkfifo(dir, 'started'),
    release: mkfifo(dir, 'release'),
    threads: cc.status === 0 ? join(dir, 'threads') : undefined,
  };
}

async function underEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  for (const [k, v] of Object.entries(env)) process.env[k] = v;
  try {
    return await fn();
  } finally {
    for (const k of Object.keys(env)) delete process.env[k];
  }
}

/** The hook's record says a cap holds, and what it reported stays within it. */
function expectCapped(result: DispatchResult, count: number): void {
  // The bomb first: it stopped short of what it wanted (uncapped, it reaches WANTED).
  expect(count).toBeGreaterThan(1);
  expect(count).toBeLessThan(WANTED);
  const cap = result.hooks[0]?.processCap;
  expect(cap?.mechanism).toMatch(/^(pids-cgroup|pid-namespace|rlimit-nproc)$/);
  expect(count).toBeLessThanOrEqual(cap?.max ?? 0);
}

describe.each(MODES)('the process cap (%s)', (mode) => {
  const isolation = mode === 'contained' ? 'process' : 'namespace';

  it('a fork bomb stops at its cap inside its sandbox, while the host and another tenant keep forking', async () => {
    const r = root();
    const marker = randomUUID();
    const lines = new FifoLines(r.started);
    const feed = new FifoFeed(r.release);
    const bomb = {
      command: './bomb.sh',
      isolation,
      timeoutMs: 60_000,
      env: { HW_MARK: marker, STARTED: './started', RELEASE: './release' },
    };
    // Relative: a tenant's hook sees the root at /project, not at its host path.
    const quiet = { argv: ['/bin/echo', '{"additionalContext":"calm"}'], isolation };
    const config = {
      tenants: {
        acme: { hooks: { BeforeTool: [{ hooks: [bomb] }] } },
        calm: { hooks: { BeforeTool: [{ hooks: [quiet] }] } },
      },
    };
    await underEnv(modeEnv(mode), () =>
      withExecutor({ config, root: r.dir, limits: { killGraceMs: 200 } }, async (hw) => {
        const held = hw.dispatch('BeforeTool', input({ toolName: 'Bash' }), { tenant: 'acme' });
        const [, count] = (await lines.next()).split(' ');
        // The bomb sits at its cap now: the host forks, and the other tenant's hook runs.
        expect(spawnSync('/bin/true').status).toBe(0);
        const other = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }), { tenant: 'calm' });
        expect(other.hooks[0]).toMatchObject({ outcome: 'proceed' });
        expect(other.additionalContext).toBe('calm');
        feed.send();
        const result = await held;
        expect(result.additionalContext).toBe(count);
        expectCapped(result, Number(count));
      }),
    );
    // Its sandbox dies with it: wait (bounded) for the last of its processes to be reaped.
    expect(await settleMarked('HW_MARK', marker, 10_000)).toEqual([]);
  });

  it('a thread bomb stops at the same cap', async () => {
    const r = root();
    if (r.threads === undefined) throw new Error('cc could not build the thread bomb');
    const result = await underEnv(modeEnv(mode), () =>
      withExecutor(
        {
          config: {
            hooks: { BeforeTool: [{ hooks: [{ argv: [r.threads], isolation, timeoutMs: 30_000 }] }] },
          },
          root: r.dir,
        },
        (hw) => hw.dispatch('BeforeTool', input({ toolName: 'Bash' })),
      ),
    );
    expect(result.hooks[0]).toMatchObject({ outcome: 'proceed' });
    expectCapped(result, Number(result.additionalContext));
  });
});
