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
import { MAIN_LOOK, seriesLook } from '../../src/measure/report-series.js';
import { REPORT_STYLE } from '../../src/measure/report-style.js';
import { histogramSvg } from '../../src/measure/report-svg.js';
import { benchResult, lat, otherBuild } from '../helpers/bench-result.js';

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

/** The styles of a percentile plot's lines, by their titles. */
const pathStyles = (svg: string) =>
  Object.fromEntries(
    [...svg.matchAll(/<path d="M[^"]+" class="pc" style="([^"]+)"><title>([^<]+)<\/title>/g)].map((m) => [
      unentity(m[2]!),
      m[1]!,
    ]),
  );

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

describe('series told apart by more than hue', () => {
  it("the first 35 looks all differ in colour, dash and marker at once, and none is the whole dispatch's", () => {
    const looks = Array.from({ length: 35 }, (_, i) => seriesLook(i));
    const triples = looks.map((l) => `${l.colour} ${l.dash} ${l.marker}`);
    expect(new Set(triples).size).toBe(35);
    // Neighbours differ in all three, so even two lines of near hues differ in dash and marker.
    for (let i = 1; i < 10; i++) {
      expect(looks[i]!.dash).not.toBe(looks[i - 1]!.dash);
      expect(looks[i]!.marker).not.toBe(looks[i - 1]!.marker);
    }
    expect(triples).not.toContain(`${MAIN_LOOK.colour} ${MAIN_LOOK.dash} ${MAIN_LOOK.marker}`);
  });

  it('a replay of 8 events: each line has its own style, and the caption names each as it is drawn', () => {
    const r = benchResult();
    const names = [
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'Stop',
      'SubagentStop',
      'SessionEnd',
    ];
    r.perEvent = Object.fromEntries(
      names.map((name, i) => [
        name,
        {
          canonical: name,
          perSession: 1,
          cold: { dispatchMs: 3, hookSetMs: 2 },
          dispatch: lat(1 + i, 100 - i),
          hookSet: lat(1 + i, 100 - i),
          hooksPerDispatch: 1,
          stages: r.stages.overall,
          histogram: buckets([1 + i, 2 + i, 4 + i]),
        },
      ]),
    );
    const html = renderHtmlReport(r);
    const figure = [...html.matchAll(/<figure class="chart">(.*?)<\/figure>/gs)].find((m) =>
      m[1]!.includes('Latency by percentile'),
    )![1]!;
    const styles = pathStyles(figure);
    expect(new Set(Object.values(styles)).size).toBe(9);
    const caption = /<figcaption>(.*)<\/figcaption>/s.exec(figure)![1]!;
    for (const name of names) {
      const words = new RegExp(`${name}: ([a-z -]+, [a-z -]+)[;)]`).exec(caption)![1]!;
      const look = Array.from({ length: 10 }, (_, i) => seriesLook(i)).find((l) => l.words === words)!;
      expect(styles[`event ${name}`]).toContain(`stroke:${look.colour}`);
      expect(styles[`event ${name}`]).toContain(
        look.dash === '' ? `stroke-width:${look.width}` : `stroke-dasharray:${look.dash}`,
      );
    }
  });
});

describe('captions', () => {
  it('sit under their own chart and speak of what it draws: red only where the lines are red', () => {
    const html = renderHtmlReport(benchResult());
    const figures = [...html.matchAll(/<figure class="chart">(.*?)<\/figure>/gs)].map((m) => m[1]!);
    expect(figures.length).toBe(4);
    for (const f of figures) {
      const caption = /<figcaption>(.*)<\/figcaption>/s.exec(f)![1]!;
      if (/\bred\b/i.test(caption)) expect(f).toMatch(/class="marker percentile"/);
      const drawnRed = /stroke:#(e15759|c0392b|D55E00)/i.test(f.replace(/<figcaption>.*$/s, ''));
      if (!/class="marker percentile"/.test(f))
        expect([caption.slice(0, 40), drawnRed]).toEqual([caption.slice(0, 40), false]);
    }
    // The note that once sat under two charts and spoke of one is gone.
    expect(html).not.toContain('<p class="note">Red:');
  });
});

describe('the page', () => {
  it('gives every chart the whole width of the page', () => {
    expect(REPORT_STYLE).toMatch(/svg\{[^}]*width:100%/);
    expect(REPORT_STYLE).toMatch(/body\{[^}]*max-width:1500px/);
    const html = renderHtmlReport(benchResult());
    for (const m of html.matchAll(/<svg viewBox="0 0 (\d+) \d+"/g)) expect(Number(m[1])).toBe(1000);
  });
});

describe('the baselines', () => {
  it('each have a dash of their own in every chart, and a name on the chart', () => {
    const style = (name: string) =>
      new RegExp(`svg \\.bl-${name}\\{stroke:(#[0-9a-f]+);stroke-dasharray:([\\d. ]+)[;}]`).exec(
        REPORT_STYLE,
      )!;
    const dashes = ['piscinaEcho', 'spawnTrue', 'quickJsEval'].map((n) => style(n)[2]);
    expect(new Set(dashes).size).toBe(3);
    // Baselines near the dispatches (~2 ms), so that every chart draws them.
    const r = benchResult();
    r.baselines = { piscinaEcho: lat(1), spawnTrue: lat(1.5), quickJsEval: lat(0.8) };
    const html = renderHtmlReport(r);
    for (const n of ['piscinaEcho', 'spawnTrue', 'quickJsEval']) {
      // The histogram's marker, the percentile plot's line.
      expect(html).toContain(`class="marker baseline bl bl-${n}"`);
      expect(html).toMatch(new RegExp(`<line [^>]*class="bl bl-${n}"><title>`));
    }
    // The over-time chart names each at its line's end.
    for (const short of ['echo', 'spawn', 'eval'])
      expect(html).toMatch(new RegExp(`class="end-label"[^>]*><title>${short}</title>`));
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
  const next = benchResult({ overall: base.blocks.map((b) => b.overall.p50 * 2) }, otherBuild);
  const html = renderCompareReport(base, next, compareResults(base, next), 'runs/base.json', 'runs/new.json');

  it('draws each run in its own colour, dash and marker, named on the line and in the legend', () => {
    for (const cls of ['cdf base', 'cdf new'])
      expect(html).toMatch(new RegExp(`<polyline points="[^"]+" class="${cls}" style="[^"]+"/>`));
    const base = /class="cdf base" style="([^"]+)"/.exec(html)![1]!;
    const neu = /class="cdf new" style="([^"]+)"/.exec(html)![1]!;
    expect(base).toContain('stroke-dasharray');
    expect(neu).not.toContain('stroke-dasharray');
    expect(html).toContain('>base: runs/base.json</text>');
    expect(html).toContain('>new: runs/new.json</text>');
    expect(html).toMatch(/class="end-label" style="fill:#55555e">base<\/text>/);
    expect(html).toMatch(/class="end-label" style="fill:#C05500">new<\/text>/);
    expect(html).toContain('Dispatch latency by percentile, both runs');
    expect(html).toContain('grey dashed, hollow circles');
    expect(html).toContain('vermilion solid, squares');
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
