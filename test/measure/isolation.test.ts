// runBench({ isolation }): the same command hook at every isolation level the host supports, from
// the one list `isolationLevels()` gives, interleaved in one run.
import { describe, expect, it } from 'vitest';
import { isolationLevels } from '../../src/executor/isolation-levels.js';
import { runBench } from '../../src/measure/index.js';
import { input } from '../helpers/fixture.js';

const config = {
  hooks: {
    BeforeTool: [
      {
        hooks: [
          { type: 'command', name: 'check', command: 'cat > /dev/null' },
          { type: 'command', name: 'contained', command: 'true', isolation: 'namespace' },
        ],
      },
    ],
  },
};
const tiny = { iterations: 4, warmup: 0, blocks: 2, baselineSamples: 2, onWarning: () => {}, config };
const required = process.env.HOOKWARDEN_REQUIRE_NAMESPACE === '1';

describe('isolationLevels', () => {
  it('lists the levels least contained first, process among them, each saying how to raise hooks to it', () => {
    const levels = isolationLevels();
    expect(levels[0]!.level).toBe('process');
    expect(levels.map((l) => l.level)).toContain('namespace');
    expect(levels[0]!.available).toBe(true);
    for (const l of levels) {
      expect(l.limits).toEqual({ minIsolation: l.level });
      expect(l.detail.length).toBeGreaterThan(10);
    }
    if (required) expect(levels.find((l) => l.level === 'namespace')!.available).toBe(true);
  });
});

describe('runBench with isolation', () => {
  it('"all" runs every available level and lists the others; each hook keeps what it asks for', async () => {
    const levels = isolationLevels();
    const r = await runBench({
      ...tiny,
      event: 'PreToolUse',
      input: input({ toolName: 'Bash' }),
      isolation: 'all',
    });
    expect(r.isolation!.map((l) => [l.level, l.available])).toEqual(
      levels.map((l) => [l.level, l.available]),
    );
    const proc = r.isolation![0]!;
    const ns = r.isolation!.find((l) => l.level === 'namespace');
    expect(proc.hooks).toEqual([
      { id: 'check', isolation: 'process' },
      { id: 'contained', isolation: 'namespace' },
    ]);
    expect(proc.vsFirst).toBe(1);
    // The top-level figures are the first level's.
    expect(r.overall).toEqual(proc.overall);
    expect(proc.overall!.count).toBe(4);
    if (ns!.available) {
      expect(ns!.hooks).toEqual([
        { id: 'check', isolation: 'namespace' },
        { id: 'contained', isolation: 'namespace' },
      ]);
      expect(ns!.overall!.count).toBe(4);
      expect(ns!.perHook!.check!.count).toBe(4);
      expect(r.perHook.check!.errors).toEqual({});
    } else {
      expect(ns!.overall).toBeUndefined();
      expect(ns!.detail.length).toBeGreaterThan(0);
    }
  });

  it('refuses an unknown level (naming the levels), a level the host lacks, a server, and a floor of its own', async () => {
    const base = { ...tiny, event: 'PreToolUse', input: input() };
    await expect(runBench({ ...base, isolation: ['vm'] })).rejects.toThrow(
      `isolation: unknown level "vm"; the levels are ${isolationLevels()
        .map((l) => l.level)
        .join(', ')}, or "all"`,
    );
    await expect(
      runBench({ ...base, isolation: ['process'], limits: { minIsolation: 'namespace' } }),
    ).rejects.toThrow(/give either isolation or limits.minIsolation/);
    await expect(
      runBench({ event: 'PreToolUse', url: 'http://127.0.0.1:9', token: 't', isolation: 'all' }),
    ).rejects.toThrow(/not with url/);
  });
});
