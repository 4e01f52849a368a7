// The docs say what the code does: each claim that can be read from the code is checked against it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, ROOT), 'utf8');

describe('docs/development.md', () => {
  it('lists the layers in the order the layer check enforces', () => {
    const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as {
      forbidden: { name: string }[];
    };
    const checked = config.forbidden.flatMap((r) => (r.name.startsWith('layer:') ? [r.name.slice(6)] : []));
    const doc = read('docs/development.md');
    const block = /bottom first[\s\S]*?```\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const documented = block
      .split('\n')
      .flatMap((line) => line.replace(/\s*\(.*$/, '').split(/,\s*/))
      .map((s) => s.trim())
      .filter((s) => s !== '');
    expect(checked.length).toBeGreaterThan(10);
    expect(documented).toEqual(checked);
  });
});
