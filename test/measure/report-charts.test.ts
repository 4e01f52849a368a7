// The pictures of the report, read as a person would: axes that fit the data, a percentile axis
// that gives the tail room, legends in full inside the picture, baselines told apart, stage bars
// with an axis and values, the compare CDF's legend with line samples, tables with whole names and
// one number format per column.
import { describe, expect, it } from 'vitest';
import type { BenchResult } from '../../src/measure/bench-result.js';
import { compareResults } from '../../src/measure/compare.js';
import { renderHtmlReport } from '../../src/measure/index.js';
import { decimalsFor, formatColumns } from '../../src/measure/number-format.js';
import { fitLogDomain, logTicks, textWidth } from '../../src/measure/report-axes.js';
import { stackedBarsSvg } from '../../src/measure/report-charts.js';
import { renderCompareReport } from '../../src/measure/report-compare.js';
import { percentileSvg } from '../../src/measure/report-percentiles.js';
import { REPORT_STYLE } from '../../src/measure/report-style.js';
import { histogramSvg } from '../../src/measure/report-svg.js';
import { benchResult, lat } from '../helpers/bench-result.js';

const buckets = (values: number[]) => values.map((v) => ({ fromMs: v * 0.95, toMs: v, count: 10 }));

const unentity = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');

/**
 * Every `<text>` of an SVG: its x, its anchor, its class, whether it is turned, its content (tspans
 * joined) and its lines (one per tspan).
 */
function texts(svg: string) {
  return [...svg.matchAll(/<text ([^>]*)>(.*?)<\/text>/g)].map((m) => {
    const attrs = m[1]!;
    const inner = m[2]!.replace(/<title>.*?<\/title>/g, '');
    const spans = [...inner.matchAll(/<tspan[^>]*>(.*?)<\/tspan>/g)].map((t) => unentity(t[1]!));
    return {
      x: Number(/ x="([\d.-]+)"/.exec(` ${attrs}`)?.[1]),
      anchor: /text-anchor="(\w+)"/.exec(attrs)?.[1] ?? 'start',
      cls: /class="([^"]+)"/.exec(attrs)?.[1] ?? '',
      turned: attrs.includes('rotate('),
      text: unentity(inner.replace(/<[^>]+>/g, '')),
      lines: spans.length > 0 ? spans : [unentity(inner.replace(/<[^>]+>/g, ''))],
    };
  });
}

const viewWidth = (svg: string) => Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);

/** No text runs out of the picture: start, middle or end anchored, measured generously. */
function expectInside(svg: string): void {
  const w = viewWidth(svg);
  for (const t of texts(svg)) {
    expect(t.text).not.toMatch(/…|\.\.\s*$/);
    if (t.turned) continue;
    for (const line of t.lines) {
      const width = textWidth(line);
      const [from, to] =
        t.anchor === 'middle'
          ? [t.x - width / 2, t.x + width / 2]
          : t.anchor === 'end'
            ? [t.x - width, t.x]
            : [t.x, t.x + width];
      expect([line, from >= -1, to <= w + 1]).toEqual([line, true, true]);
    }
  }
}

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
    },
    {
      label: 'spawn',
      valueMs: 3,
      kind: 'baseline' as const,
      className: 'bl bl-spawnTrue',
      legend: "baseline: raw spawn('/bin/true'), p50",
    },
  ];
  const svg = histogramSvg(buckets([5, 8, 12, 20, 50]), markers);

  it('spans the data (and baselines near it), and points at a baseline far outside from the edge', () => {
    const axis = texts(svg)
      .filter((t) => /^[\d.]+( s)?$/.test(t.text) && t.anchor === 'middle')
      .map((t) => t.text);
    expect(axis).toContain('10');
    expect(axis).not.toContain('0.1');
    expect(axis).not.toContain('1 s');
    expect(svg).toContain('◀ echo 0.1');
    expect(svg).toContain('spawn 3');
  });

  it('has a legend under the plot naming every line in full, all of it inside the picture', () => {
    for (const t of [
      'dispatches per latency bin',
      'baseline: Piscina echo round trip, p50',
      "baseline: raw spawn('/bin/true'), p50",
    ])
      expect(texts(svg).map((x) => x.text)).toContain(t);
    expectInside(svg);
  });
});

describe('the percentile plot', () => {
  const series = [
    {
      label: 'dispatch, overall',
      buckets: buckets([1, 2, 3, 5, 8, 13, 21, 34, 55, 89]),
      className: 'pc-main',
    },
    {
      label: 'event PostToolUseFailure (AfterTool), a long series name',
      buckets: buckets([0.2, 0.4]),
      className: 'pc-0',
    },
  ];
  const svg = percentileSvg(series, [{ name: 'spawnTrue', p50: 2 }]);

  it('puts p90, p99 and p99.9 one step apart on a log tail axis', () => {
    const at = (label: string) => texts(svg).find((t) => t.text === label)!.x;
    const step = at('p90') - at('p0');
    expect(step).toBeGreaterThan(100);
    expect(at('p99') - at('p90')).toBeCloseTo(step, 0);
    expect(at('p99.9') - at('p99')).toBeCloseTo(step, 0);
    expect(at('p50') - at('p0')).toBeCloseTo(step * Math.log10(2), 0);
  });

  it('draws one line per series and each baseline in its own style, named in full in the legend', () => {
    expect(svg.match(/<path d="M[^"]+" class="pc pc-main">/g)).toHaveLength(1);
    expect(svg.match(/<path d="M[^"]+" class="pc pc-0">/g)).toHaveLength(1);
    expect(svg).toMatch(/<line [^>]*class="bl bl-spawnTrue">/);
    const legend = texts(svg)
      .filter((t) => t.cls === 'legend')
      .map((t) => t.text);
    expect(legend).toEqual([
      'dispatch, overall',
      'event PostToolUseFailure (AfterTool), a long series name',
      "baseline: raw spawn('/bin/true'), p50 2 ms",
    ]);
    expectInside(svg);
  });
});

describe('the baselines', () => {
  it('each have a colour and a dash of their own in every chart', () => {
    const style = (name: string) =>
      new RegExp(`svg \\.bl-${name}\\{stroke:(#[0-9a-f]+);stroke-dasharray:([\\d. ]+)[;}]`).exec(
        REPORT_STYLE,
      )!;
    const looks = ['piscinaEcho', 'spawnTrue', 'quickJsEval'].map((n) => style(n).slice(1).join(' '));
    expect(new Set(looks).size).toBe(3);
    // Baselines near the dispatches (~2 ms), so that every chart draws them.
    const r = benchResult();
    r.baselines = { piscinaEcho: lat(1), spawnTrue: lat(1.5), quickJsEval: lat(0.8) };
    const html = renderHtmlReport(r);
    for (const n of ['piscinaEcho', 'spawnTrue', 'quickJsEval']) {
      // The histogram's marker, the percentile plot's line, the over-time line.
      expect(html).toContain(`class="marker baseline bl bl-${n}"`);
      expect(html).toMatch(new RegExp(`<line [^>]*class="bl bl-${n}"><title>`));
      expect(html).toContain(`class="ot bl bl-${n}"`);
    }
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

describe('the compare report', () => {
  const base = benchResult();
  const next = benchResult({ overall: base.blocks.map((b) => b.overall.p50 * 2) });
  const html = renderCompareReport(base, next, compareResults(base, next), 'runs/base.json', 'runs/new.json');

  it('gives its CDF a legend of horizontal line samples in each run’s own style, under the plot', () => {
    const samples = [
      ...html.matchAll(
        /<line x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="([\d.]+)" class="(cdf (?:base|new))"\/>/g,
      ),
    ];
    expect(samples.map((m) => [m[3], m[1] === m[2]])).toEqual([
      ['cdf base', true],
      ['cdf new', true],
    ]);
    expect(html).toContain('>base: runs/base.json</text>');
    expect(html).toContain('>new: runs/new.json</text>');
    expect(html).toContain('Dispatch latency by percentile, both runs');
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
