// Wasm modules refused at load: what validate reports (the JSON path of `source` and what is wrong,
// naming the import it refuses), and what a refused module in a policy file does to a dispatch.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/index.js';
import { input, tempDir, withExecutor, writeConfig, writeFile } from '../helpers/fixture.js';
import { WASI_PRELUDE, wasmConfig, wat } from '../helpers/wasm.js';

const START = '(func (export "_start"))';

async function problems(module: Uint8Array, extra: Record<string, unknown> = {}): Promise<string[]> {
  const config = wasmConfig({ BeforeTool: [{ name: 'm', module, ...extra }] });
  const r = await validateConfig({ config, root: tempDir() });
  // (The config then loads no hook, which validate also says, at the file's top.)
  return r.diagnostics
    .filter((d) => d.severity === 'error' && d.path !== '')
    .map((d) => `${d.path}: ${d.message}`);
}

const SOURCE = 'hooks.BeforeTool[0].hooks[0].source';

describe('a wasm module is refused at load, naming why', () => {
  it.each([
    [
      'a function of another module',
      '(import "env" "fetch" (func (param i32) (result i32)))',
      '"env"."fetch"',
    ],
    [
      'a host function of another WASI version',
      '(import "wasi_unstable" "fd_write" (func (param i32 i32 i32 i32) (result i32)))',
      '"wasi_unstable"."fd_write"',
    ],
    [
      'a name WASI preview 1 does not have',
      '(import "wasi_snapshot_preview1" "sock_open" (func (param i32 i32 i32) (result i32)))',
      '"wasi_snapshot_preview1"."sock_open"',
    ],
    [
      'a WASI function with another signature',
      '(import "wasi_snapshot_preview1" "fd_write" (func (param i32) (result i32)))',
      'declares it (i32,i32,i32,i32->i32)',
    ],
    ['a memory', '(import "env" "memory" (memory 1))', 'imports memory "env"."memory"'],
    ['a global', '(import "env" "secret" (global i32))', 'imports global "env"."secret"'],
    ['a table', '(import "env" "table" (table 1 funcref))', 'imports table "env"."table"'],
  ])('an import of %s', async (_what, imp, named) => {
    const module = await wat(`(module ${imp} ${START})`);
    const found = await problems(module);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(`${SOURCE}: the module imports`);
    expect(found[0]).toContain(named);
  });

  it('a module that declares more memory than its cap, and one under a smaller maxWasmMemoryBytes', async () => {
    const module = await wat(`(module (memory (export "memory") 40) ${START})`);
    // 40 pages = 2.5 MiB: above 1 MiB; fine under the default 32 MiB.
    expect(await problems(module, { memoryBytes: 1024 * 1024 })).toEqual([
      `${SOURCE}: the module declares a memory of at least 2621440 bytes, above the hook's memory cap of 1048576 bytes (memoryBytes); see docs/wasm.md for what a wasm hook may import and declare, got "hooks/m.wasm"`,
    ]);
    expect(await problems(module)).toEqual([]);
    const dir = tempDir();
    writeFile(join(dir, 'm.wasm'), module);
    const capped = writeConfig(dir, 'hooks.json', {
      limits: { maxWasmMemoryBytes: 2 * 1024 * 1024 },
      hooks: { BeforeTool: [{ hooks: [{ type: 'wasm', source: 'm.wasm' }] }] },
    });
    const r = await validateConfig({ config: capped, root: tempDir() });
    expect(r.diagnostics.map((d) => d.message).join('\n')).toContain(
      "above the hook's memory cap of 2097152 bytes",
    );
  });

  it.each([
    ['random bytes', () => Buffer.from('this is no module at all')],
    ['a truncated module', async () => (await wat(`(module ${WASI_PRELUDE} ${START})`)).subarray(0, 60)],
    ['a component (layer 1)', () => Buffer.from([0, 0x61, 0x73, 0x6d, 0x0d, 0, 1, 0])],
    [
      'a section whose size runs past the end',
      () => Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 0xff, 0x7f]),
    ],
    ['an empty file', () => Buffer.alloc(0)],
  ])('%s is malformed', async (_what, make) => {
    const found = await problems(new Uint8Array(await make()));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      new RegExp(`^${SOURCE.replace(/[[\].]/g, '\\$&')}: the module (cannot be read|does not compile)`),
    );
  });

  it('a module without _start, with a shared memory, with threads or exceptions', async () => {
    expect((await problems(await wat('(module (func (export "main")))')))[0]).toContain(
      'no "_start" function',
    );
    const shared = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 4, 1, 3, 1, 1]);
    expect((await problems(shared))[0]).toContain('shared memory');
    // (func (export "_start") i32.const 0 i32.const 0 i32.atomic.rmw.add drop) hand-encoded: 0xfe 0x1e
    const name = (s: string) => [s.length, ...Buffer.from(s)];
    const atomics = new Uint8Array([
      ...[0, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
      ...[1, 4, 1, 0x60, 0, 0], // type () -> ()
      ...[3, 2, 1, 0], // one function
      ...[5, 3, 1, 0, 1], // memory 1
      ...[7, 19, 2, ...name('_start'), 0, 0, ...name('memory'), 2, 0],
      ...[10, 13, 1, 11, 0, 0x41, 0, 0x41, 0, 0xfe, 0x1e, 2, 0, 0x1a, 0x0b],
    ]);
    expect((await problems(atomics))[0]).toContain('threads and atomics');
  });

  it('a module larger than 16 MiB is refused before it is read', async () => {
    const found = await problems(new Uint8Array(16 * 1024 * 1024 + 1));
    expect(found[0]).toContain('source is larger than 16777216 bytes');
  });

  it('a refused module in a policy file denies deny-capable events; elsewhere it is skipped', async () => {
    const module = await wat(`(module (import "env" "fetch" (func)) ${START})`);
    const policy = wasmConfig({ BeforeTool: [{ name: 'm', module }] });
    await withExecutor({ policy: [policy] }, async (ex) => {
      const r = await ex.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: { command: 'ls' } }));
      expect(r.decision).toBe('deny');
    });
    await withExecutor({ config: [policy] }, async (ex, warnings) => {
      const r = await ex.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: { command: 'ls' } }));
      expect(r.decision).toBe('passthrough');
      expect(warnings.join('\n')).toContain('"env"."fetch"');
    });
  });
});
