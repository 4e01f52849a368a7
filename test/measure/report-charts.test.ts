// The pictures of the report, read as a person would: axes that fit the data, a percentile axis
// that gives the tail room, legends in full inside the picture, baselines told apart, stage bars
// with an axis and values, the compare CDF's legend with line samples, tables with whole names and
// one number format per column.
import { describe, expect, it } from 'vitest';
import type { BenchResult } from '../../src/measure/bench-result.js';
import { renderHtmlReport } from '../../src/measure/index.js';
import { decimalsFor, formatColumns } from '../../src/measure/number-format.js';
import { fitLogDomain, logTicks } from '../../src/measure/report-axes.js';
import { stackedBarsSvg } from '../../src/measure/report-charts.js';
import { percentileSvg } from '../../src/measure/report-percentiles.js';
import { MAIN_LOOK, seriesLook } from '../../src/measure/report-series.js';
import { histogramSvg } from '../../src/measure/report-svg.js';
import { benchResult, lat } from '../helpers/bench-result.js';
import { buckets, expectInside, pathStyles, texts, unentity } from '../helpers/svg-text.js';

describe('axes', () => {
  it('fit a log domain to the data, not to whole decades around it', () => {
    const [lo, hi] = fitLogDomain([5, 50]);
    expect(lo).toBeGreaterThan(3);
    expect(hi).toBeLessThan(70);
    expect(logTicks([lo, hi])).toEqual([5, 10, 20, 50]);
    // A narrow range still gets round ticks inside it.
    expect(logTicks(fitLogDomain([0.41, 0.52])).length).toBeGreaterThanOrEqual(3);
  });

  it('format every number of a column alike, with the decimals its smallest value needs', () => {
    expect(decimalsFor([0.574, 13.2, 261])).toBe(2);
    expect(decimalsFor([0.013, 2])).toBe(3);
    expect(decimalsFor([1.5, 28.1])).toBe(1);
    expect(decimalsFor([150, 2400])).toBe(0);
    expect(
      formatColumns([
        ['a', 0.5, 1200],
        ['b', 12.25, 1500.5],
      ]),
    ).toEqual([
      ['a', '0.50', '1,200'],
      ['b', '12.25', '1,501'],
    ]);
  });
});

describe('the histogram', () => {
  const markers = [
    { label: 'p50', valueMs: 12, kind: 'percentile' as const },
    {
      label: 'echo',
      valueMs: 0.1,
      kind: 'baseline' as const,
      className: 'bl bl-piscinaEcho',
      legend: 'baseline: Piscina echo round trip, p50',
      name: 'baseline: Piscina echo round trip, p50',
    },
    {
      label: 'spawn',
      valueMs: 3,
      kind: 'baseline' as const,
      className: 'bl bl-spawnTrue',
      legend: "baseline: raw spawn('/bin/true'), p50",
      name: "baseline: raw spawn('/bin/true'), p50",
    },
  ];
  const html = histogramSvg(buckets([5, 8, 12, 20, 50]), markers);
  const svg = /<svg .*<\/svg>/s.exec(html)![0];
  const caption = /<figcaption>(.*)<\/figcaption>/s.exec(html)![1]!;

  it('spans the data and the baselines near it; a baseline far outside is named plainly in the caption, not drawn at an edge', () => {
    const axis = texts(svg)
      .filter((t) => /^[\d.]+( s)?$/.test(t.text) && t.anchor === 'middle')
      .map((t) => t.text);
    expect(axis).toContain('10');
    expect(axis).not.toContain('0.1');
    expect(svg).not.toMatch(/[◀▶]/);
    expect(svg).not.toContain('echo 0.1');
    expect(svg).toContain('spawn 3');
    expect(caption).toContain(
      "Not drawn, being far from the dispatches: baseline: Piscina echo round trip, p50 (0.1 ms, below the chart's range).",
    );
  });

  it('has a legend under the plot naming every line drawn in full, all of it inside the picture', () => {
    const legend = texts(svg)
      .filter((t) => t.cls === 'legend')
      .map((x) => x.text);
    expect(legend).toEqual([
      'dispatches per latency bin',
      'p50, p90, p99, p99.9 of the dispatch latency',
      "baseline: raw spawn('/bin/true'), p50",
    ]);
    expectInside(svg);
  });

  it('stretches its axis to a baseline within a factor of 10 of the data, and draws it', () => {
    const near = histogramSvg(buckets([5, 8, 12]), [{ ...markers[1]!, valueMs: 0.6 }]);
    expect(near).toContain('echo 0.6');
    expect(near).not.toContain('Not drawn');
  });
});

describe('the percentile plot', () => {
  const series = [
    {
      label: 'dispatch, overall',
      short: 'all dispatches',
      buckets: buckets([1, 2, 3, 5, 8, 13, 21, 34, 55, 89]),
      look: MAIN_LOOK,
    },
    {
      label: 'event PostToolUseFailure (AfterTool), a long series name',
      short: 'PostToolUseFailure',
      buckets: buckets([0.2, 0.4]),
      look: seriesLook(0),
    },
  ];
  const html = percentileSvg(series, [{ name: 'spawnTrue', p50: 2 }]);
  const svg = /<svg .*<\/svg>/s.exec(html)![0];

  it('puts p90, p99 and p99.9 one step apart on a log tail axis', () => {
    const at = (label: string) => texts(svg).find((t) => t.text === label)!.x;
    const step = at('p90') - at('p0');
    expect(step).toBeGreaterThan(100);
    expect(at('p99') - at('p90')).toBeCloseTo(step, 0);
    expect(at('p99.9') - at('p99')).toBeCloseTo(step, 0);
    expect(at('p50') - at('p0')).toBeCloseTo(step * Math.log10(2), 0);
  });

  it('draws one line per series and each baseline in its own style, named at its end and in full in the legend', () => {
    expect(Object.keys(pathStyles(svg))).toEqual(series.map((s) => s.label));
    expect(svg).toMatch(/<line [^>]*class="bl bl-spawnTrue"><title>/);
    const legend = texts(svg)
      .filter((t) => t.cls === 'legend')
      .map((t) => t.text);
    expect(legend).toEqual([
      'dispatch, overall',
      'event PostToolUseFailure (AfterTool), a long series name',
      "baseline: raw spawn('/bin/true'), p50 2 ms",
    ]);
    const ends = texts(svg)
      .filter((t) => t.cls === 'end-label')
      .map((t) => t.text);
    expect(ends.sort()).toEqual(['PostToolUseFailure', 'all dispatches', 'spawn 2']);
    expectInside(svg);
  });

  it('marks p50, p90, p99 and p99.9 on every line, each series with a marker shape of its own', () => {
    for (const s of series)
      for (const q of ['p50', 'p90', 'p99', 'p99.9'])
        expect(svg).toContain(`<title>${s.label.replace(/[()]/g, (c) => c)}: ${q} `);
    // Four marks per line, each line's of one shape: circles for the dispatch, its own for the event.
    const shapes = (label: string) =>
      [...svg.matchAll(/<(circle|rect|polygon|path) [^>]*><title>([^<]+): p[\d.]+ /g)]
        .filter((m) => unentity(m[2]!) === label)
        .map((m) => m[1]);
    expect(shapes('dispatch, overall')).toEqual(['circle', 'circle', 'circle', 'circle']);
    const other = shapes(series[1]!.label);
    expect(other).toHaveLength(4);
    expect(new Set(other).size).toBe(1);
  });
});

describe('the stage bars', () => {
  const rows = [
    {
      label: 'dispatch (mean)',
      tooltip: 'd',
      parts: { queueMs: 0.05, transportMs: 2.4, runMs: 3.1, foldMs: 0.2 },
    },
    {
      label: 'hook a-hook-with-a-name-far-longer-than-a-column-is-wide/and-more',
      tooltip: 'h',
      parts: { queueMs: 0.02, transportMs: 2.2, runMs: 2.9 },
    },
  ];
  const svg = stackedBarsSvg('Where the time goes', rows, 'ms', 'ms, mean per dispatch');

  it('have a value axis with ticks and each wide stage labelled with its value', () => {
    const all = texts(svg).map((t) => t.text);
    expect(all).toEqual(expect.arrayContaining(['0', '2', '4', '6', 'ms, mean per dispatch', '5.75 ms']));
    expect(
      texts(svg)
        .filter((t) => t.cls === 'on-bar')
        .map((t) => t.text),
    ).toEqual(['2.4', '3.1', '2.2', '2.9']);
  });

  it('show every name whole (wrapped over lines) and the legend inside the picture', () => {
    const label = texts(svg).find((t) => t.text.startsWith('hook a-hook'))!;
    expect(label.lines.join('')).toBe(rows[1]!.label);
    expect(label.lines.length).toBeGreaterThan(1);
    expect(svg).toMatch(/<tspan x="[\d.]+" dy="13">/);
    expect(
      texts(svg)
        .filter((t) => t.cls === 'legend')
        .map((t) => t.text),
    ).toEqual(['queue', 'spawn / isolate', 'hook run', 'fold &amp; result'.replace('&amp;', '&')]);
    expectInside(svg);
  });
});

describe('the tables', () => {
  it('show whole series names and one number format per column', () => {
    const r: BenchResult = benchResult();
    const long = 'a-guard-with-a-very-long-name-that-would-not-fit-in-a-narrow-column';
    r.perHook = { [long]: { ...r.perHook.guard!, ...lat(0.3), p99: 12.5 } };
    const html = renderHtmlReport(r);
    expect(html).toContain(`<td class="name">${long}</td>`);
    const table = /<h2>Per hook \(ms\)<\/h2>\s*<table>(.*?)<\/table>/s.exec(html)![1]!;
    const cells = [...table.matchAll(/<tr>(.*?)<\/tr>/g)]
      .slice(1)
      .map((m) => [...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1]!));
    const latency = /<h2>Latency \(ms\)<\/h2>\s*<table>(.*?)<\/table>/s.exec(html)![1]!;
    const rows = [...latency.matchAll(/<tr>(.*?)<\/tr>/g)]
      .slice(1)
      .map((m) => [...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1]!));
    for (let col = 2; col < rows[0]!.length; col++) {
      const decimals = new Set(rows.map((row) => (row[col]!.split('.')[1] ?? '').length));
      expect([col, decimals.size]).toEqual([col, 1]);
    }
    expect(cells[0]![0]).toBe(long);
  });
});
