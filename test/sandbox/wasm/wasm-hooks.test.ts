// Wasm hooks end to end through an executor: the protocol (stdin, stdout JSON, exit 2 + stderr), a
// fresh instance per call, the deadline, the memory cap, determinism, and the modules refused at load.
import { describe, expect, it } from 'vitest';
import { input, withExecutor } from '../../helpers/fixture.js';
import { CONTEXT_HELPER, HEX_HELPER, WASI_PRELUDE, wasmConfig, wat } from '../../helpers/wasm.js';

/** Denies when stdin contains `needle` (reason on stderr), else answers `answer` on stdout. */
async function guardModule(needle: string, reason: string, answer = ''): Promise<Uint8Array> {
  const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  return wat(`(module ${WASI_PRELUDE}
    (data (i32.const 100) "${esc(needle)}")
    (data (i32.const 300) "${esc(reason)}")
    (data (i32.const 600) "${esc(answer)}")
    (func (export "_start") (local $n i32)
      (local.set $n (call $read_all (i32.const 1024)))
      (if (call $contains (i32.const 1024) (local.get $n) (i32.const 100) (i32.const ${Buffer.byteLength(needle)}))
        (then (call $write (i32.const 2) (i32.const 300) (i32.const ${Buffer.byteLength(reason)}))
              (call $exit (i32.const 2))))
      (call $write (i32.const 1) (i32.const 600) (i32.const ${Buffer.byteLength(answer)}))))`);
}

const bash = (command: string) => input({ toolName: 'Bash', toolInput: { command } });

describe('a wasm guard module', () => {
  it('denies with its stderr as the reason (exit 2) and proceeds otherwise, in order of registration', async () => {
    const deny = await guardModule('rm -rf', 'recursive force delete refused');
    const allow = await guardModule('never-there', 'x', '{"decision":"allow","reason":"looked"}');
    const config = wasmConfig({
      BeforeTool: [
        { name: 'no-rm', module: deny },
        { name: 'approver', module: allow },
      ],
    });
    await withExecutor({ config: [config] }, async (ex) => {
      const denied = await ex.dispatch('BeforeTool', bash('rm -rf /tmp/x'));
      expect(denied.decision).toBe('deny');
      expect(denied.reason).toContain('recursive force delete refused');
      expect(denied.hooks.map((h) => [h.id, h.type, h.outcome])).toEqual([
        ['no-rm', 'wasm', 'deny'],
        ['approver', 'wasm', 'not-run'],
      ]);
      const allowed = await ex.dispatch('BeforeTool', bash('ls -la'));
      expect(allowed.decision).toBe('allow');
      expect(allowed.hooks.map((h) => h.outcome)).toEqual(['proceed', 'allow']);
    });
  });

  it('reads the input exactly as a command hook does (Claude Code names in a Claude Code file)', async () => {
    // Denies only if it sees Claude Code's snake_case tool_input: the file is a Claude Code settings file.
    const module = await guardModule('"tool_input"', 'saw claude code input');
    const file = wasmConfig({ PreToolUse: [{ name: 'cc', module, matcher: 'Bash' }] });
    await withExecutor({ config: [file] }, async (ex) => {
      const r = await ex.dispatch('BeforeTool', bash('ls'));
      expect(r.decision).toBe('deny');
    });
  });

  it('answers invalid_output for stdout that is not JSON, and onError "deny" turns it into a deny', async () => {
    const module = await guardModule('never-there', 'x', '{not json');
    const config = wasmConfig({ BeforeTool: [{ name: 'garbage', module, onError: 'deny' }] });
    await withExecutor({ config: [config] }, async (ex) => {
      const r = await ex.dispatch('BeforeTool', bash('ls'));
      expect(r.decision).toBe('deny');
      expect(r.hooks[0]!.error?.code).toBe('invalid_output');
    });
  });
});

describe('isolation of a wasm hook', () => {
  it('a module that never returns ends timeout at its deadline, and its thread is replaced', async () => {
    const spin = await wat(`(module ${WASI_PRELUDE} (func (export "_start") (loop $l (br $l))))`);
    const ok = await guardModule('never-there', 'x', '{"decision":"allow"}');
    const config = wasmConfig({
      BeforeTool: [
        { name: 'spin', module: spin, timeoutMs: 300, matcher: 'Bash' },
        { name: 'ok', module: ok, matcher: 'Read' },
      ],
    });
    await withExecutor({ config: [config] }, async (ex) => {
      const r = await ex.dispatch('BeforeTool', bash('ls'));
      expect(r.hooks[0]!.outcome).toBe('timeout');
      expect(r.hooks[0]!.error?.message).toContain('300 ms');
      // The lane still works: a fresh thread answers the next call.
      const after = await ex.dispatch('BeforeTool', input({ toolName: 'Read', toolInput: {} }));
      expect(after.hooks[0]!.outcome).toBe('allow');
    });
  });

  it('a module that grows its memory without end ends memory_limit at its cap', async () => {
    const grow = await wat(`(module ${WASI_PRELUDE}
      (func (export "_start")
        (loop $l (if (i32.eq (memory.grow (i32.const 16)) (i32.const -1)) (then unreachable)) (br $l))))`);
    const config = wasmConfig({ BeforeTool: [{ name: 'grow', module: grow, memoryBytes: 4 * 1024 * 1024 }] });
    await withExecutor({ config: [config] }, async (ex) => {
      const r = await ex.dispatch('BeforeTool', bash('ls'));
      expect(r.hooks[0]!.outcome).toBe('limit');
      expect(r.hooks[0]!.error?.code).toBe('memory_limit');
    });
  });
});

describe('no state survives a call', () => {
  it('a global and a memory cell the module increments read 1 on every call, on every thread', async () => {
    // Bumps a mutable global, a memory cell, a data segment byte and the table's one slot; reports all four.
    const stateful = await wat(`(module ${WASI_PRELUDE} ${HEX_HELPER} ${CONTEXT_HELPER}
      (global $g (mut i32) (i32.const 0))
      (table 2 funcref)
      (func $marker)
      (elem declare func $marker)
      (data (i32.const 520) "\\05")
      (func (export "_start")
        (global.set $g (i32.add (global.get $g) (i32.const 1)))
        (i32.store (i32.const 512) (i32.add (i32.load (i32.const 512)) (i32.const 1)))
        (i32.store8 (i32.const 520) (i32.add (i32.load8_u (i32.const 520)) (i32.const 1)))
        (i32.store8 (i32.const 516) (global.get $g))
        (i32.store8 (i32.const 521) (ref.is_null (table.get (i32.const 1))))
        (table.set (i32.const 1) (ref.func $marker))
        (call $context_hex (i32.const 512) (i32.const 10))))`);
    const config = wasmConfig({ BeforeTool: [{ name: 'stateful', module: stateful }] });
    await withExecutor({ config: [config] }, async (ex) => {
      const contexts = await Promise.all(
        Array.from({ length: 24 }, () => ex.dispatch('BeforeTool', bash('ls'))),
      );
      // memory cell 1, global 1, data byte 6 (5 + 1), table slot 1 empty before the call (1 = null).
      for (const r of contexts) expect(r.additionalContext).toBe('01000000010000000601');
    });
  });
});

describe('determinism', () => {
  // Reads the realtime and monotonic clocks and 24 random bytes.
  const clockAndRandom = () =>
    wat(`(module
      (import "wasi_snapshot_preview1" "clock_time_get" (func $clock (param i32 i64 i32) (result i32)))
      (import "wasi_snapshot_preview1" "random_get" (func $random (param i32 i32) (result i32)))
      ${WASI_PRELUDE} ${HEX_HELPER} ${CONTEXT_HELPER}
      (func (export "_start")
        (drop (call $read_all (i32.const 1024)))
        (drop (call $clock (i32.const 0) (i64.const 1) (i32.const 512)))
        (drop (call $clock (i32.const 1) (i64.const 1) (i32.const 520)))
        (drop (call $random (i32.const 528) (i32.const 24)))
        (call $context_hex (i32.const 512) (i32.const 40))))`);

  it('every clock reads the event timestamp and random bytes are the same for the same hook and input', async () => {
    const module = await clockAndRandom();
    // b differs in its limits only: identical hooks would run once per event.
    const config = wasmConfig({
      BeforeTool: [
        { name: 'a', module },
        { name: 'b', module, maxOutputBytes: 4096 },
      ],
    });
    const at = '2026-11-29T12:00:00.000Z';
    const ns = (BigInt(Date.parse(at)) * 1_000_000n).toString(16).padStart(16, '0');
    const le = ns.match(/../g)!.reverse().join('');
    const run = () =>
      withExecutor({ config: [config] }, async (ex) => {
        const one = await ex.dispatch('BeforeTool', bash('ls'));
        const other = await ex.dispatch('BeforeTool', bash('ls -la'));
        return { one: one.additionalContext!.split('\n'), other: other.additionalContext!.split('\n') };
      });
    const first = await run();
    const again = await run();
    expect(again).toEqual(first);
    const [a, b] = first.one;
    expect(a!.slice(0, 32)).toBe(le + le);
    // Another hook id, another input: other random bytes; the clock is the same.
    expect(b!.slice(0, 32)).toBe(le + le);
    expect(b!.slice(32)).not.toBe(a!.slice(32));
    expect(first.other[0]!.slice(32)).not.toBe(a!.slice(32));
    expect(a!.slice(32)).toMatch(/^[0-9a-f]{48}$/);
  });
});

describe('limits of a wasm hook', () => {
  it('output past maxOutputBytes ends output_limit, on stdout and on stderr', async () => {
    const flood = (fd: number) =>
      wat(`(module ${WASI_PRELUDE}
        (func (export "_start") (loop $l (call $write (i32.const ${fd}) (i32.const 1024) (i32.const 4096)) (br $l))))`);
    const config = wasmConfig({
      BeforeTool: [
        { name: 'out', module: await flood(1), maxOutputBytes: 10_000, matcher: 'Bash' },
        { name: 'err', module: await flood(2), maxOutputBytes: 10_000, matcher: 'Read' },
      ],
    });
    await withExecutor({ config: [config] }, async (ex) => {
      for (const [tool, stream] of [
        ['Bash', 'stdout'],
        ['Read', 'stderr'],
      ] as const) {
        const r = await ex.dispatch('BeforeTool', input({ toolName: tool, toolInput: {} }));
        expect(r.hooks[0]!.outcome).toBe('limit');
        expect(r.hooks[0]!.error?.code).toBe('output_limit');
        expect(r.hooks[0]!.error?.message).toContain(stream);
      }
    });
  });

  it('unbounded recursion ends stack_overflow, and the worker keeps serving', async () => {
    const recurse = await wat(`(module ${WASI_PRELUDE}
      (func $f (param i32) (result i32) (i32.add (call $f (i32.add (local.get 0) (i32.const 1))) (i32.const 1)))
      (func (export "_start") (drop (call $f (i32.const 0)))))`);
    const config = wasmConfig({ BeforeTool: [{ name: 'deep', module: recurse, onError: 'deny' }] });
    await withExecutor({ config: [config] }, async (ex) => {
      for (let i = 0; i < 3; i++) {
        const r = await ex.dispatch('BeforeTool', bash('ls'));
        expect(r.hooks[0]!.error?.code).toBe('stack_overflow');
        expect(r.decision).toBe('deny');
      }
    });
  });

  it('a fuel budget ends a long loop as timeout, the same on every call, and lets a short call finish', async () => {
    // Loops as many times as the input has bytes, times 1000.
    const spin = await wat(`(module ${WASI_PRELUDE}
      (func (export "_start") (local $n i32)
        (local.set $n (i32.mul (call $read_all (i32.const 1024)) (i32.const 1000)))
        (loop $l (local.set $n (i32.sub (local.get $n) (i32.const 1))) (br_if $l (i32.gt_s (local.get $n) (i32.const 0))))))`);
    const config = wasmConfig({ BeforeTool: [{ name: 'metered', module: spin, fuel: 2_000_000 }] });
    await withExecutor({ config: [config] }, async (ex) => {
      const short = await ex.dispatch('BeforeTool', bash('ls'));
      expect(short.hooks[0]!.outcome).toBe('proceed');
      const long = await ex.dispatch('BeforeTool', bash('x'.repeat(5000)));
      expect(long.hooks[0]!.outcome).toBe('timeout');
      expect(long.hooks[0]!.error).toMatchObject({ code: 'timeout', details: { fuel: 2_000_000 } });
    });
  });

  it('a call that hangs inside a batch times out alone: the calls batched with it run again elsewhere', async () => {
    // Quick for every input but one holding "hang"; learned quick first, so queued calls travel in batches.
    const sometimes = await wat(`(module ${WASI_PRELUDE}
      (data (i32.const 100) "hang")
      (func (export "_start") (local $n i32)
        (local.set $n (call $read_all (i32.const 1024)))
        (if (call $contains (i32.const 1024) (local.get $n) (i32.const 100) (i32.const 4))
          (then (loop $l (br $l))))))`);
    const config = wasmConfig({
      BeforeTool: [
        { name: 'sometimes', module: sometimes, timeoutMs: 400, matcher: 'Bash' },
        // Holds every wasm thread while the calls above queue up behind it.
        { name: 'blocker', module: sometimes, timeoutMs: 700, matcher: 'Read', maxOutputBytes: 4096 },
      ],
    });
    await withExecutor({ config: [config], limits: { jsThreads: 2 } }, async (ex) => {
      for (let i = 0; i < 10; i++) await ex.dispatch('BeforeTool', bash('warm'));
      const blockers = [0, 1].map(() =>
        ex.dispatch('BeforeTool', input({ toolName: 'Read', toolInput: { x: 'hang' } })),
      );
      const calls = Array.from({ length: 24 }, (_, i) =>
        ex.dispatch('BeforeTool', bash(i === 3 ? 'hang' : `ok ${i}`)),
      );
      const results = await Promise.all(calls);
      expect(results.map((r) => r.hooks[0]!.outcome)).toEqual(
        results.map((_, i) => (i === 3 ? 'timeout' : 'proceed')),
      );
      expect((await Promise.all(blockers)).map((r) => r.hooks[0]!.outcome)).toEqual(['timeout', 'timeout']);
    });
  });
});
