// Wasm hooks through the real binary: dispatch (with its audit records), validate (naming the import
// it refuses), and bench.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { tempDir, writeConfig, writeFile } from '../../helpers/fixture.js';
import { WASI_PRELUDE, wasmConfig, wat } from '../../helpers/wasm.js';

const denyRm = () =>
  wat(`(module ${WASI_PRELUDE}
    (data (i32.const 100) "rm -rf")
    (data (i32.const 200) "refused")
    (func (export "_start") (local $n i32)
      (local.set $n (call $read_all (i32.const 1024)))
      (if (call $contains (i32.const 1024) (local.get $n) (i32.const 100) (i32.const 6))
        (then (call $write (i32.const 2) (i32.const 200) (i32.const 7)) (call $exit (i32.const 2))))))`);

const event = (command: string) => {
  const dir = tempDir();
  return writeConfig(dir, 'event.json', { toolName: 'Bash', toolInput: { command } });
};

describe('wasm hooks on the command line', () => {
  it('dispatch denies with exit 2 and writes an audit record of type wasm', async () => {
    const cfg = wasmConfig({ BeforeTool: [{ name: 'no-rm', module: await denyRm() }] });
    const audit = join(tempDir(), 'audit.jsonl');
    const r = await runCli(['dispatch', 'BeforeTool', '-c', cfg, '-i', event('rm -rf /'), '--audit', audit]);
    expect(r.code, r.stderr).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny', reason: 'refused', decidedBy: 'no-rm' });
    const records = readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(
      records.some((rec) => rec.hookId === 'no-rm' && rec.type === 'wasm' && rec.outcome === 'deny'),
    ).toBe(true);
    const ok = await runCli(['dispatch', 'BeforeTool', '-c', cfg, '-i', event('ls')]);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('validate names the import a module refuses and exits 1', async () => {
    const dir = tempDir();
    writeFile(
      join(dir, 'net.wasm'),
      await wat(
        '(module (import "wasi_snapshot_preview1" "sock_connect" (func (param i32 i32) (result i32))) (func (export "_start")))',
      ),
    );
    const cfg = writeConfig(dir, 'hooks.json', {
      hooks: { BeforeTool: [{ hooks: [{ source: 'net.wasm' }] }] },
    });
    const r = await runCli(['validate', cfg]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('"wasi_snapshot_preview1"."sock_connect"');
    expect(r.stdout + r.stderr).toContain('hooks.BeforeTool[0].hooks[0].source');
  });

  it('bench measures a wasm hook', async () => {
    const cfg = wasmConfig({ BeforeTool: [{ name: 'no-rm', module: await denyRm() }] });
    const r = await runCli([
      'bench',
      '-c',
      cfg,
      '-e',
      'BeforeTool',
      '-i',
      event('ls'),
      '-n',
      '8',
      '--warmup',
      '1',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as {
      hooks: Record<string, unknown>[];
      perHook: Record<string, { count: number }>;
    };
    expect(result.hooks).toEqual([expect.objectContaining({ id: 'no-rm', type: 'wasm', isolation: 'wasm' })]);
    expect(result.perHook['no-rm']!.count).toBeGreaterThan(0);
  });
});
