// `npm run build` swaps a whole build in with one rename (scripts/build-swap.mjs), so that a hook
// installed from the checkout never meets a half-built or missing tree (issue 39): calls of an
// installed guard run in a loop, from two callers at once, while builds are swapped in and out at
// varied timings — every call blocks. The first swap of a checkout whose dist/ is still a folder (an
// earlier build script's) moves it aside too, and calls across it block. Builds out of force are
// kept while recent, and a build a long-lived process holds is never removed.
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { swapIn } from '../../scripts/build-swap.mjs';
import {
  ADAPTER_SETUPS,
  type Adapter,
  adapterCommands,
  adapterProject,
  type Obj,
} from '../helpers/agent-setups.js';
import { runProgram } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixture.js';
import { daemonEnv } from '../helpers/native-client.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A checkout with two builds of the current code (`.dist-a`, `.dist-b`), `dist` naming `.dist-a`. */
function twoBuilds(): string {
  const root = tempDir('hw-swap-');
  cpSync(join(ROOT, 'bin'), join(root, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  for (const b of ['a', 'b']) {
    cpSync(realpathSync(join(ROOT, 'dist')), join(root, `.dist-${b}`), {
      recursive: true,
      dereference: true,
      // Not the markers of the checkout's own build (who holds it, when it was retired).
      filter: (src) => !/\/\.(holders|retired)$/.test(src),
    });
    writeFileSync(join(root, `.dist-${b}`, 'build.json'), `${JSON.stringify({ id: b })}\n`);
  }
  return root;
}

type Result = { status: number | null; stdout: string; stderr: string };

function call(line: string, input: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', line], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.on('error', () => {}); // a command that ends before reading its input
    child.stdin.end(input);
  });
}

/** Installs a's guard from `root`'s hookwarden; returns the gate's command line and how to call it. */
async function installed(root: string, a: Adapter) {
  const { dir, path } = adapterProject(a);
  const env = daemonEnv();
  const r = await runProgram(
    process.execPath,
    [join(root, 'bin/hookwarden'), a, 'install', path, '--write'],
    { env },
  );
  expect(r.code, r.stderr).toBe(0);
  const line = adapterCommands(
    a as 'codex',
    JSON.parse(readFileSync(path, 'utf8')) as Obj,
    ADAPTER_SETUPS[a].event,
  )[0]!;
  expect(line).toContain(`${root}/dist/native/hookwarden-client`);
  return () => call(line, JSON.stringify(ADAPTER_SETUPS[a].input('rm -rf /')), dir, env);
}

/** Calls in a loop from two callers while `swaps` runs; returns every result. */
async function underCalls(
  run: () => Promise<Result>,
  swaps: () => Promise<void>,
  atLeast: number,
): Promise<Result[]> {
  const results: Result[] = [];
  let swapping = true;
  const loop = async () => {
    while (swapping || results.length < atLeast) results.push(await run());
  };
  const calls = Promise.all([loop(), loop()]);
  await swaps();
  swapping = false;
  await calls;
  return results;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a build swapped in under a loop of calls', () => {
  it.each(['claude-code', 'copilot', 'gemini'] as const)(
    '%s: every call blocks, whatever the timing',
    async (a) => {
      const root = twoBuilds();
      swapIn(root, '.dist-a');
      const run = await installed(root, a);
      const timings = [0, 1, 3, 7, 15, 40, 90, 0, 0, 5];
      const results = await underCalls(
        run,
        async () => {
          for (let i = 0; i < 30; i++) {
            swapIn(root, i % 2 === 0 ? '.dist-b' : '.dist-a');
            await pause(timings[i % timings.length]!);
          }
        },
        16,
      );
      for (const r of results)
        expect(ADAPTER_SETUPS[a].denied(r), `${r.status} ${r.stdout} ${r.stderr}`).toBe(true);
      expect(readlinkSync(join(root, 'dist'))).toBe('.dist-a');
      // Both builds are kept: each was in force moments ago.
      expect([existsSync(join(root, '.dist-a')), existsSync(join(root, '.dist-b'))]).toEqual([true, true]);
    },
  );

  it('the first swap of a checkout whose dist/ is a folder moves it aside; calls across it block', async () => {
    const root = twoBuilds();
    cpSync(join(root, '.dist-b'), join(root, 'dist'), { recursive: true });
    const run = await installed(root, 'claude-code');
    const results = await underCalls(
      run,
      async () => {
        await pause(200);
        swapIn(root, '.dist-a');
        await pause(200);
      },
      8,
    );
    for (const r of results)
      expect(ADAPTER_SETUPS['claude-code'].denied(r), `${r.status} ${r.stderr}`).toBe(true);
    expect(readlinkSync(join(root, 'dist'))).toBe('.dist-a');
  });
});

describe('builds out of force', () => {
  it('are removed once retired long enough, unless a live process holds one', () => {
    const root = twoBuilds();
    mkdirSync(join(root, '.dist-c'));
    swapIn(root, '.dist-a');
    const old = `${Date.now() - 3_600_000}\n`;
    writeFileSync(join(root, '.dist-b', '.retired'), old);
    writeFileSync(join(root, '.dist-c', '.retired'), old);
    // This test process holds .dist-b (as a daemon or serve would).
    const stat = readFileSync('/proc/self/stat', 'latin1');
    mkdirSync(join(root, '.dist-b', '.holders'));
    writeFileSync(
      join(root, '.dist-b', '.holders', String(process.pid)),
      `${process.pid}:${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`,
    );
    swapIn(root, '.dist-a');
    expect([
      existsSync(join(root, '.dist-a')),
      existsSync(join(root, '.dist-b')),
      existsSync(join(root, '.dist-c')),
    ]).toEqual([true, true, false]);
  });
});
