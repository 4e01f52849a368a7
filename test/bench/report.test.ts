import { describe, expect, it } from 'vitest';
import { type BenchResult, Histogram, type LatencySummary, renderHtmlReport } from '../../src/bench/index.js';
import { createProgress } from '../../src/bench/progress.js';
import { formatMs } from '../../src/bench/report-svg.js';

const lat = (p50: number, count = 10): LatencySummary => ({
  count,
  p50,
  p90: p50 * 2,
  p99: p50 * 4,
  p999: p50 * 5,
  max: p50 * 6,
  mean: p50 * 1.2,
});

const HOSTILE = '<img src=x onerror=alert(1)>';

function result(extra: Partial<BenchResult> = {}, hookId = 'guard'): BenchResult {
  const h = new Histogram();
  for (const v of [0.2, 0.3, 0.31, 0.5, 0.9, 4]) h.record(v);
  return {
    config: ['conf/"hooks".json'],
    policy: [],
    event: 'BeforeTool',
    iterations: 6,
    concurrency: 1,
    tenants: 2,
    warmup: 1,
    durationMs: 12,
    throughputPerSec: 500,
    overall: lat(0.31, 6),
    perHook: { [hookId]: { type: 'js', ...lat(0.2, 6), queuedP50: 0.01, queuedP99: 0.02, notRun: 0 } },
    perTenant: {
      t1: { ...lat(0.3, 3), throughputPerSec: 250 },
      t2: { ...lat(0.3, 3), throughputPerSec: 250 },
    },
    baselines: { piscinaEcho: lat(0.1), spawnTrue: lat(1.7), quickJsEval: lat(0.27) },
    ratios: {
      overall: { vsPiscinaEcho: 3.1, vsSpawnTrue: 0.18, vsQuickJsEval: 1.15, vsEchoPlusEval: 0.84 },
      perHook: { [hookId]: { vsQuickJsEval: 0.74, vsEchoPlusEval: 0.54 } },
    },
    decisions: { allow: 6 },
    errors: { timeout: 1 },
    histogram: h.buckets(2),
    machine: { cpuModel: 'cpu', cpus: 2, totalMemoryBytes: 1, node: 'v20', platform: 'linux', arch: 'x64' },
    startedAt: '2026-11-29T00:00:00.000Z',
    ...extra,
  };
}

describe('renderHtmlReport', () => {
  it('renders tables and two inline SVG charts with no script or external reference', () => {
    const html = renderHtmlReport(result());
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html).not.toMatch(/https?:\/\/|src=|<script/i);
    for (const text of [
      'Per hook (ms)',
      'Per tenant (ms)',
      'Ratios (p50 ÷ baseline p50)',
      'timeout',
      'p99.9',
    ])
      expect(html).toContain(text);
  });

  it('escapes hook ids and paths taken from config files', () => {
    const html = renderHtmlReport(result({}, HOSTILE));
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('conf/&quot;hooks&quot;.json');
    expect(html).not.toContain('<img');
  });

  it('renders a run with no hook and no sample without failing', () => {
    const html = renderHtmlReport(
      result({ perHook: {}, ratios: { ...result().ratios, perHook: {} }, histogram: [], errors: {} }),
    );
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html).not.toContain('NaN');
  });

  it('labels latencies compactly', () => {
    expect([0.05, 0.25, 3.2, 150, 2000].map(formatMs)).toEqual(['0.05', '0.25', '3.2', '150', '2 s']);
  });
});

describe('createProgress', () => {
  const stream = (isTTY: boolean) => {
    const writes: string[] = [];
    return { isTTY, columns: 100, write: (s: string) => writes.push(s), writes };
  };

  it('draws a bar in place on a terminal and erases it at the end', () => {
    const s = stream(true);
    const p = createProgress(s, 'bench');
    p.update(1, 4);
    p.update(4, 4);
    p.finish();
    expect(s.writes[0]).toMatch(/^\r\x1b\[2Kbench .* 25% 1\/4/);
    expect(s.writes.at(-2)).toMatch(/100% 4\/4/);
    expect(s.writes.at(-1)).toBe('\r\x1b[2K');
  });

  it('writes nothing when the stream is not a terminal', () => {
    const s = stream(false);
    const p = createProgress(s, 'bench');
    p.update(1, 2);
    p.update(2, 2);
    p.finish();
    expect(s.writes).toEqual([]);
  });
});
