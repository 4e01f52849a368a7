// The spawn server cannot be crashed by a request: its frame decoder under a fuzzer (wire-fuzz.c,
// with the sanitizers), the real server fed random and mutated frames, requests of any argument or
// environment size (no stack that grows with them), the wire's caps with a clear error, and rlimits
// clamped to the host's hard limits (the record says which).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ProcessGroups } from '../../../sandbox/command/kill-group.js';
import type { LaunchSpec } from '../../../sandbox/command/launch.js';
import { findNativeHelper } from '../../../sandbox/command/native-helper.js';
import { runCommand } from '../../../sandbox/command/run-command.js';
import { SpawnServer } from '../../../sandbox/command/spawn-server.js';
import { encodeSpawn, SPAWN_CAPS } from '../../../sandbox/command/spawn-wire.js';
import type { DispatchResult } from '../../../src/index.js';
import { commandTask } from '../../helpers/command-task.js';
import { hooksOn, input, tempDir } from '../../helpers/fixture.js';

const SERVER = findNativeHelper('hw-spawn-server')!;
const NATIVE = fileURLToPath(new URL('../../../sandbox/native/', import.meta.url));
const DRIVER = fileURLToPath(new URL('./wire-fuzz.c', import.meta.url));
const HOST = fileURLToPath(new URL('../../fixtures/hosts/dispatch-once.mjs', import.meta.url));

const groups = new ProcessGroups();
const launcher = new SpawnServer(SERVER);
afterAll(async () => {
  groups.dispose();
  await launcher.close();
});

/** A seed printed with the run, so that a failure can be replayed (HW_FUZZ_SEED=<n>). */
const SEED = Number(process.env.HW_FUZZ_SEED ?? Date.now() % 1_000_000);

describe('the frame decoder under a fuzzer', () => {
  it('parses random and mutated frames without a crash, an out-of-bounds read or a leak', () => {
    const dir = tempDir('hw-fuzz-');
    const out = join(dir, 'wire-fuzz');
    const sources = [DRIVER, join(NATIVE, 'spawn-wire.c')];
    const flags = ['-O1', '-g', '-Wall', '-Wextra', '-Werror', `-I${NATIVE}`, '-o', out, ...sources];
    // With the sanitizers where the compiler has them (gcc and clang do); plain otherwise.
    const sanitized = ['-fsanitize=address,undefined', '-fno-sanitize-recover=all'];
    let built = spawnSync('cc', [...sanitized, ...flags], { encoding: 'utf8' });
    if (built.status !== 0) built = spawnSync('cc', flags, { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    // 20,000 frames reach every branch in well under a second on a quiet machine (the sanitizers make
    // it ~10× slower than plain); HW_FUZZ_RUNS asks for a deeper run. The bound only catches a hang:
    // at load ~20 on 2 cores, 100,000 frames took 62 s.
    const runs = Number(process.env.HW_FUZZ_RUNS ?? 20_000);
    console.log(`wire-fuzz seed ${SEED}, ${runs} frames`);
    const r = spawnSync(out, [String(SEED), String(runs)], { encoding: 'utf8', timeout: 540_000 });
    expect(r.error).toBeUndefined();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const [, total, parsed, refused, malformed] = r.stdout.trim().split(' ').map(Number);
    expect(total).toBe(runs);
    // The generator reaches every branch: requests parsed, refused past a cap, and malformed.
    expect(parsed).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(malformed).toBeGreaterThan(0);
  }, 600_000);
});

/** A real server fed `bytes` then EOF: how it ended. */
function feed(bytes: Buffer): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve) => {
    const server = spawn(SERVER, [String(process.pid)], { env: {}, stdio: 'pipe' });
    let stderr = '';
    server.stderr.on('data', (d) => {
      stderr += d;
    });
    server.stdout.resume();
    server.stdin.on('error', () => {});
    server.stdin.end(bytes);
    server.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

const spec = (extra: Partial<LaunchSpec> = {}): LaunchSpec => ({
  argv: ['/bin/true'],
  env: { PATH: '/usr/bin:/bin' },
  fd3: undefined,
  cwd: '/tmp',
  limits: { cpuSeconds: 5, openFiles: 64, fileSizeBytes: 1 << 20, addressSpaceBytes: undefined },
  maxProcesses: 64,
  runAs: undefined,
  stdin: '',
  maxOutputBytes: 1024,
  contain: 'prefer',
  dropCapabilities: true,
  ...extra,
});

describe('the spawn server fed random and mutated frames', () => {
  it('never dies by a signal: it refuses a malformed frame (exit 2) or carries on', async () => {
    let state = SEED || 1;
    const rnd = () => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state;
    };
    for (let i = 0; i < 60; i++) {
      let bytes: Buffer;
      if (i % 3 === 0) bytes = Buffer.from(Array.from({ length: rnd() % 300 }, () => rnd() & 0xff));
      else {
        bytes = Buffer.from(encodeSpawn(1, spec({ argv: ['/bin/true', 'x'.repeat(rnd() % 40)] })));
        for (let e = 0; e < 1 + (rnd() % 3); e++) {
          const at = 4 + (rnd() % (bytes.length - 4));
          bytes[at] = rnd() & 0xff;
        }
      }
      const r = await feed(bytes);
      expect(r.signal, `frame ${i} (seed ${SEED})`).toBeNull();
      expect([0, 2], `frame ${i} (seed ${SEED}): ${r.stderr}`).toContain(r.code);
      if (r.code === 2) expect(r.stderr).toContain('protocol error');
    }
  });

  it('answers a well-formed request past a cap with FAILED and starts the next one', async () => {
    const big = encodeSpawn(
      1,
      spec({ argv: ['/bin/true', ...Array.from({ length: SPAWN_CAPS.maxArgs }, () => 'a')] }),
    );
    const ok = encodeSpawn(2, spec());
    const server = spawn(SERVER, [String(process.pid)], { env: {}, stdio: 'pipe' });
    let out = Buffer.alloc(0);
    const frames: { type: number; id: number; payload: Buffer }[] = [];
    const got = new Promise<void>((resolve) => {
      server.stdout.on('data', (d: Buffer) => {
        out = Buffer.concat([out, d]);
        while (out.length >= 9 && out.length >= 4 + out.readUInt32LE(0)) {
          const len = out.readUInt32LE(0);
          frames.push({ type: out[4]!, id: out.readUInt32LE(5), payload: out.subarray(9, 4 + len) });
          out = out.subarray(4 + len);
        }
        if (frames.some((f) => f.id === 2 && f.type === 6)) resolve();
      });
    });
    server.stdin.write(big);
    server.stdin.write(ok);
    await got;
    server.stdin.end();
    await new Promise((r) => server.on('close', r));
    const failed = frames.find((f) => f.id === 1);
    expect(failed?.type).toBe(2);
    expect(failed?.payload.subarray(1).toString()).toMatch(/more arguments than hookwarden passes \(65536\)/);
    expect(frames.filter((f) => f.id === 2).map((f) => f.type)).toEqual([1, 5, 5, 6]);
  });
});

describe('requests of any size', () => {
  it('runs a program without #! given 40,000 arguments (through /bin/sh, as execvp does)', async () => {
    const dir = tempDir('hw-args-');
    const program = join(dir, 'count');
    writeFileSync(program, 'echo "$#"\n');
    chmodSync(program, 0o755);
    const args = Array.from({ length: 40_000 }, (_, i) => `a${i}`);
    const r = await runCommand(
      commandTask({ kind: 'argv', argv: [program, ...args] }),
      groups,
      undefined,
      launcher,
    );
    expect(r).toMatchObject({ kind: 'exited', exitCode: 0, stdout: '40000\n' });
  });

  it.each([
    [
      'arguments',
      { kind: 'argv' as const, argv: ['/bin/true', ...Array.from({ length: 70_000 }, () => 'a')] },
      {},
      /70001 arguments, more than the 65536/,
    ],
    [
      'variables',
      { kind: 'argv' as const, argv: ['/bin/true'] },
      { env: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`V${i}`, 'x'])) },
      /variables, more than the 4096/,
    ],
    [
      'one long argument',
      { kind: 'argv' as const, argv: ['/bin/true', 'x'.repeat(200_000)] },
      {},
      /200000 bytes is longer than the kernel passes/,
    ],
    [
      'bytes in all',
      {
        kind: 'argv' as const,
        argv: ['/bin/true', ...Array.from({ length: 30 }, () => 'x'.repeat(100_000))],
      },
      {},
      /more than the 2097152 hookwarden passes/,
    ],
  ])(
    'refuses too many %s with a clear error, before anything starts',
    async (_what, program, extra, message) => {
      const r = await runCommand(commandTask(program, extra), groups, undefined, launcher);
      expect(r).toMatchObject({ kind: 'spawn_failed', message: expect.stringMatching(message) });
    },
  );
});

describe('rlimits above the host hard limits', () => {
  /** One dispatch in a host whose hard limits prlimit(1) lowered. */
  async function underLimits(limits: string[], command: string, env = process.env): Promise<DispatchResult> {
    const options = {
      config: hooksOn('BeforeTool', [{ command }]),
      root: '/tmp',
      event: 'BeforeTool',
      input: input(),
    };
    const host = spawn('prlimit', [...limits, process.execPath, HOST, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env,
    });
    let out = '';
    host.stdout.on('data', (d) => {
      out += d;
    });
    expect(await new Promise((r) => host.on('close', r))).toBe(0);
    return (JSON.parse(out) as { result: DispatchResult }).result;
  }

  it('are lowered to them (ulimit -n 512 on the host): the hook runs, and its record says which applied', async () => {
    const result = await underLimits(
      ['--nofile=512:512', '--cpu=30:30'],
      'printf \'{"additionalContext":"%s %s"}\' "$(ulimit -n)" "$(ulimit -t)"',
    );
    expect(result.hooks[0]).toMatchObject({
      outcome: 'proceed',
      clampedLimits: { openFiles: 512, cpuSeconds: 30 },
    });
    expect(result.additionalContext).toBe('512 30');
  });

  it('are lowered to them on the Node spawn path too (hw-exec)', async () => {
    const result = await underLimits(
      ['--nofile=512:512'],
      'printf \'{"additionalContext":"%s"}\' "$(ulimit -n)"',
      {
        ...process.env,
        HOOKWARDEN_SPAWN_SERVER: 'off',
      },
    );
    expect(result.hooks[0]).toMatchObject({ outcome: 'proceed', containment: 'uncontained' });
    expect(result.additionalContext).toBe('512');
  });
});
