// Wasm hooks end to end through an executor: the protocol (stdin, stdout JSON, exit 2 + stderr), a
// fresh instance per call, the deadline, the memory cap, determinism, and the modules refused at load.
import { describe, expect, it } from 'vitest';
import { input, withExecutor } from '../../helpers/fixture.js';
import { WASI_PRELUDE, wasmConfig, wat } from '../../helpers/wasm.js';

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
    const config = wasmConfig({ BeforeTool: [{ name: 'no-rm', module: deny }, { name: 'approver', module: allow }] });
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
