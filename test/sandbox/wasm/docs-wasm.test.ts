// docs/wasm.md says what the code does: its table names every WASI preview 1 function exactly once,
// the ones that act (or answer empty) on a row of their own, and its limits are the defaults.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WASI_CALLS } from '../../../sandbox/wasm/wasi-calls.js';
import { DEFAULTS } from '../../../src/config/defaults.js';

const doc = readFileSync(fileURLToPath(new URL('../../../docs/wasm.md', import.meta.url)), 'utf8');

describe('docs/wasm.md', () => {
  it('lists every WASI preview 1 function once in its import table', () => {
    const table = doc.slice(doc.indexOf('## What a module may import'), doc.indexOf('## Examples'));
    const rows = table.split('\n').filter((l) => l.startsWith('| `'));
    const named = rows.flatMap((r) => [...r.split('|')[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
    expect([...named].sort()).toEqual(Object.keys(WASI_CALLS).sort());
    // A function that does something for the hook is not lumped in with the ones that only refuse.
    for (const row of rows) {
      const names = [...row.split('|')[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
      const roles = new Set(names.map((n) => (WASI_CALLS[n]!.role === 'refuses' ? 'refuses' : 'gives')));
      expect(roles.size, row).toBe(1);
    }
  });

  it('states the defaults the code has', () => {
    const mib = (n: number) => `${n / 1024 / 1024} MiB`;
    expect(doc).toContain(`\`memoryBytes\` ${mib(DEFAULTS.wasm.memoryBytes)}`);
    expect(doc).toContain(`\`maxOutputBytes\` ${mib(DEFAULTS.wasm.maxOutputBytes)} per stream`);
    expect(doc).toContain(`at most ${mib(DEFAULTS.wasm.maxModuleBytes)}`);
    expect(doc).toContain(`(${mib(DEFAULTS.limits.maxWasmMemoryBytes)};`);
  });
});
