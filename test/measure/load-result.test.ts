import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBenchResult, readBenchResult } from '../../src/measure/load-result.js';
import { benchResult } from '../helpers/bench-result.js';
import { tempDir } from '../helpers/fixture.js';

describe('readBenchResult', () => {
  it('reads back what bench --json writes', () => {
    const r = benchResult();
    const file = join(tempDir(), 'r.json');
    writeFileSync(file, JSON.stringify(r));
    expect(readBenchResult(file)).toEqual(r);
  });

  it('reads results of http, prompt and agent hooks', () => {
    const text = JSON.stringify(benchResult())
      .replaceAll('"type":"js"', '"type":"http"')
      .replaceAll('"isolation":"quickjs"', '"isolation":"remote"');
    const r = parseBenchResult(JSON.parse(text), 'r.json');
    expect(Object.values(r.perHook).map((h) => h.type)).toContain('http');
    expect(r.hooks.map((h) => h.isolation)).toContain('remote');
  });

  it('keeps a hook id such as "__proto__" an ordinary key', () => {
    const text = JSON.stringify(benchResult()).replaceAll('"guard"', '"__proto__"');
    const r = parseBenchResult(JSON.parse(text), 'r.json');
    expect(Object.keys(r.perHook)).toEqual(['__proto__', 'noop']);
    expect(Object.getOwnPropertyDescriptor(r.perHook, '__proto__')?.value.type).toBe('js');
    expect(Object.getPrototypeOf(r.perHook)).toBe(null);
  });

  it('refuses other files with a message naming the file, the path and the value', () => {
    const dir = tempDir();
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const old = { ...benchResult() } as Record<string, unknown>;
    delete old.schema;
    const bad = JSON.stringify({ ...benchResult(), overall: { ...benchResult().overall, p50: -1 } });
    const cases: [string, RegExp][] = [
      [
        write('old.json', JSON.stringify(old)),
        /old\.json: a bench result of schema 1; this hookwarden reads schema 2: run `hookwarden bench … --json` again/,
      ],
      [write('bad.json', bad), /bad\.json: not a bench result: overall\.p50: .*, got -1/],
      [
        write('text.json', 'hello'),
        /text\.json: not JSON .*expected the output of `hookwarden bench --json`/,
      ],
      [write('array.json', '[1]'), /array\.json: not a bench result: \(top level\)/],
      [join(dir, 'missing.json'), /missing\.json: cannot read \(ENOENT\)/],
    ];
    for (const [file, message] of cases) expect(() => readBenchResult(file)).toThrow(message);
  });
});
