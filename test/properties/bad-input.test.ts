// Trust invariant 4, as a property: bad input never fails open and never crashes. Through the
// library, any value as input (JSON or not), any event name and any options give a verdict or a
// HookwardenError with a code, never another error; through `hookwarden dispatch` (in this process,
// and a sample through the real binary) and the Claude Code adapter (the real binary), any byte
// string on stdin gives a verdict, or one line on stderr and exit 1 (the adapter: a block where the
// event can block), never a stack trace or an internal error. Wasm hooks at every scope read the bad
// input as their stdin and answer with it (bad-input-wasm.ts), through the library and the CLI alike.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/run.js';
import { isHookwardenError } from '../../src/contract/hookwarden-error.js';
import { createExecutor, type Executor } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { wasmGroup, writeBadWasm } from './bad-input-wasm.js';
import { anyBytes, anyEvent, anyInput, anyOptions } from './gen/bad-input.js';
import { HttpHooks } from './http-hooks.js';
import { checkProperty, propertyRun } from './tier.js';

const CODES = ['invalid_options', 'config_error', 'unknown_event', 'invalid_input', 'closed', 'rate_limited'];
const VERDICTS = ['allow', 'deny', 'ask', 'defer', 'passthrough'];
/** A stack frame, as Node prints one. */
const FRAME = /^\s+at .+(\(|:\d+)/m;

let dir: string;
let hw: Executor;
let http: HttpHooks;
let config: string;
let policy: string;

beforeAll(async () => {
  dir = tempDir('hw-prop-bad-');
  http = await HttpHooks.start();
  await writeBadWasm(dir);
  const js = (name: string, code: string) => ({ type: 'js', name, code: `export default (i) => ${code}` });
  policy = writeConfig(dir, 'policy.json', {
    hooks: {
      BeforeTool: [
        { hooks: [js('guard', "JSON.stringify(i).includes('SECRET') ? { decision: 'deny' } : undefined")] },
        wasmGroup('policy', 'drain'),
      ],
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              name: 'cmd',
              command: 'cat >/dev/null; echo {}',
              // Read from the dispatch's `env` option when there is one (of any kind, generated).
              inheritEnv: ['HW_X', 'HOME', 'PATH'],
            },
          ],
        },
        wasmGroup('policy-pre', 'echo'),
      ],
      BeforeTurn: [wasmGroup('policy-turn', 'drain')],
      AfterTool: [wasmGroup('policy-after', 'drain')],
    },
    tenants: { acme: { hooks: { BeforeTool: [{ hooks: [js('acme', "({ decision: 'allow' })")] }] } } },
  });
  config = writeConfig(dir, 'hooks.json', {
    hooks: {
      BeforeTool: [
        {
          hooks: [
            js('patch', '({ modifiedInput: { seen: true } })'),
            {
              type: 'http',
              name: 'web',
              url: `${http.server.origin}/h/bad/web`,
              headers: { 'X-Token': 'Bearer $HW_X' },
              allowedEnvVars: ['HW_X'],
            },
          ],
        },
        // Not `echo`: a block at BeforeTool would deny the last check's call.
        wasmGroup('tool', 'trap'),
      ],
      BeforeTurn: [
        { hooks: [js('turn', "({ mutatedPrompt: String(i.prompt) + '!' })")] },
        wasmGroup('turn', 'echo'),
      ],
      AfterTool: [
        { hooks: [js('after', '({ additionalContext: JSON.stringify(i.toolResult) })')] },
        wasmGroup('after', 'echo', 'trap'),
      ],
      SessionStart: [{ hooks: [js('start', "({ additionalContext: 'hi' })")] }, wasmGroup('start', 'echo')],
      PreToolUse: [wasmGroup('pre', 'echo', 'trap')],
    },
  });
  http.register('bad', 'web', { hit: { kind: 'none' }, miss: { kind: 'none' } }, undefined);
  hw = await createExecutor(options());
  hw.register(platform);
});

const platform = {
  event: 'BeforeTool',
  name: 'platform',
  handler: (i: unknown) => (JSON.stringify(i).length > 0 ? undefined : undefined),
};

afterAll(async () => {
  await hw?.close();
});

const options = () => ({
  policy: [policy],
  config: [config],
  root: dir,
  onWarning: () => {},
  allowedHttpHookUrls: [http.pattern],
});

/** A verdict, or a typed rejection; anything else is the failure this property looks for. */
async function libraryCase([event, input, options]: [string, unknown, unknown]): Promise<void> {
  let result: unknown;
  try {
    result = await hw.dispatch(event, input as never, options as never);
  } catch (err) {
    if (isHookwardenError(err) && CODES.includes(err.code)) return;
    throw new Error(
      `dispatch(${JSON.stringify(event)}) rejected with an untyped error: ${(err as Error)?.stack ?? String(err)}`,
    );
  }
  const r = result as { decision: string; hooks: unknown[] };
  expect(VERDICTS).toContain(r.decision);
  expect(Array.isArray(r.hooks)).toBe(true);
  JSON.stringify(r); // a result is plain JSON
}

const lib = propertyRun('invariant 4 (bad input, library)', 3000, 4);
it('any value as input, any event and options: a verdict or a typed error', {
  timeout: lib.timeoutMs,
}, async () => {
  await checkProperty('invariant 4 (library)', lib, fc.tuple(anyEvent, anyInput, anyOptions), libraryCase);
  // The executor still answers, as a fresh one with the same files does (the wasm hooks' answers
  // depend on the input's length: a block is theirs, not the bad inputs' residue).
  const fresh = await createExecutor(options());
  fresh.register(platform);
  try {
    for (const command of ['ls', 'ls -l', 'cat a', 'cat ab']) {
      const call = { toolName: 'Bash', toolInput: { command } };
      const [after, first] = [
        await hw.dispatch('BeforeTool', call),
        await fresh.dispatch('BeforeTool', call),
      ];
      expect([after.decision, after.hooks.map((h) => [h.id, h.outcome])]).toEqual([
        first.decision,
        first.hooks.map((h) => [h.id, h.outcome]),
      ]);
    }
  } finally {
    await fresh.close();
  }
});

/** `hookwarden dispatch` in this process, its stdout and stderr captured. */
async function inProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const write = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write.bind(process.stderr);
  const capture =
    (k: 'stdout' | 'stderr') =>
    (chunk: unknown, ...rest: unknown[]) => {
      out[k] += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString();
      const cb = rest.find((x) => typeof x === 'function') as (() => void) | undefined;
      cb?.();
      return true;
    };
  process.stdout.write = capture('stdout') as typeof process.stdout.write;
  process.stderr.write = capture('stderr') as typeof process.stderr.write;
  try {
    const code = await main(['node', 'hookwarden', ...args]);
    return { code, ...out };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
}

/** One verdict on stdout (exit 0 or 2), or one line on stderr (exit 1); never a stack trace. */
function checkCli(r: { code: number | null; stdout: string; stderr: string }, what: string): void {
  const why = `${what}: exit ${r.code}\nstdout: ${r.stdout.slice(0, 300)}\nstderr: ${r.stderr.slice(0, 600)}`;
  if (FRAME.test(r.stderr) || /internal error/.test(r.stderr))
    throw new Error(`a stack trace or internal error: ${why}`);
  if (r.code === 0 || r.code === 2) {
    const parsed = JSON.parse(r.stdout) as { decision: string };
    if (!VERDICTS.includes(parsed.decision)) throw new Error(`no verdict: ${why}`);
    if (r.code === 2 && parsed.decision !== 'deny') throw new Error(`exit 2 without a deny: ${why}`);
    return;
  }
  if (r.code !== 1) throw new Error(`exit code: ${why}`);
  // hookwarden's own line, or commander's for a usage mistake (`error: unknown option '-x'`).
  const errors = r.stderr.split('\n').filter((l) => /^(hookwarden: )?error: /.test(l));
  if (errors.length !== 1 || r.stdout !== '') throw new Error(`not one error line: ${why}`);
}

const cliOptions = (file: string) => [
  '-i',
  file,
  '--policy',
  policy,
  '-c',
  config,
  '--allow-http-url',
  http.pattern,
  '--root',
  dir,
];
/** The event first, as people type it: an event like `-c` is read as an option (the binaries' case). */
const cliArgs = (event: string, file: string) => ['dispatch', event, ...cliOptions(file)];
/**
 * The event after `--`, always the positional. In this process an event like `-c` would take `-i`
 * as its value and leave the CLI reading the test process's stdin, which never ends (fuzz seed
 * 20261203, case 1125); through the real binaries it reads the bytes given.
 */
const inProcessArgs = (event: string, file: string) => ['dispatch', ...cliOptions(file), '--', event];
let n = 0;

const cli = propertyRun('invariant 4 (bad input, hookwarden dispatch)', 200, 30);
it('hookwarden dispatch: any bytes as input give a verdict or one line, exit 1', {
  timeout: cli.timeoutMs,
}, async () => {
  await checkProperty('invariant 4 (dispatch)', cli, fc.tuple(anyEvent, anyBytes), async ([event, bytes]) => {
    const file = join(dir, `input-${n++}.json`);
    writeFileSync(file, bytes);
    checkCli(
      await inProcess(inProcessArgs(event, file)),
      `dispatch ${JSON.stringify(event)} < ${Buffer.from(bytes).toString('base64').slice(0, 200)}`,
    );
  });
});

/** The real binary, bytes on stdin. */
const binary = (args: string[], stdin: Uint8Array) =>
  runCli(args, { stdin, env: { ...process.env, CLAUDE_PROJECT_DIR: dir } });

/** The adapter answers in Claude Code's protocol: exit 0 (JSON or nothing), 1 (one line) or 2 (a block). */
function checkAdapter(r: { code: number | null; stdout: string; stderr: string }, what: string): void {
  const why = `${what}: exit ${r.code}\nstdout: ${r.stdout.slice(0, 300)}\nstderr: ${r.stderr.slice(0, 600)}`;
  if (FRAME.test(r.stderr) || /internal error/.test(r.stderr))
    throw new Error(`a stack trace or internal error: ${why}`);
  if (r.code !== 0 && r.code !== 1 && r.code !== 2) throw new Error(`exit code: ${why}`);
  if (r.code === 0 && r.stdout.trim() !== '') JSON.parse(r.stdout);
  if (r.code !== 0 && r.stderr.trim() === '' && r.stdout.trim() === '')
    throw new Error(`a failure that says nothing: ${why}`);
}

// Two Node start-ups a case: the fuzz tier runs `--binary-runs` of them (HOOKWARDEN_PROPERTY_BINARY_RUNS).
const bin = propertyRun('invariant 4 (bad input, binaries)', 12, 400, 'HOOKWARDEN_PROPERTY_BINARY_RUNS');
it('the real binaries: hookwarden dispatch and the Claude Code adapter, any bytes on stdin', {
  timeout: bin.timeoutMs,
}, async () => {
  // An argument cannot hold a NUL (the OS refuses it before hookwarden starts).
  const pair = fc.tuple(
    anyEvent.filter((e) => !e.includes('\u0000')),
    anyBytes,
  );
  await checkProperty('invariant 4 (binaries)', bin, pair, async ([event, bytes]) => {
    const what = `< ${Buffer.from(bytes).toString('base64').slice(0, 200)}`;
    checkCli(
      await binary(cliArgs(event, '-'), bytes),
      `hookwarden dispatch ${JSON.stringify(event)} ${what}`,
    );
    checkAdapter(
      await binary(['claude-code', '--config', config, '--policy', policy], bytes),
      `hookwarden claude-code ${what}`,
    );
  });
});
