// The report's looks, read as a person would: lines told apart by colour, dash and marker and named
// at their ends, captions that speak of their own chart, charts as wide as the page, the baselines
// in greys of their own dashes, and the compare page's two runs.
import { describe, expect, it } from 'vitest';
import { compareResults } from '../../src/measure/compare.js';
import { renderHtmlReport } from '../../src/measure/index.js';
import { renderCompareReport } from '../../src/measure/report-compare.js';
import { MAIN_LOOK, seriesLook } from '../../src/measure/report-series.js';
import { REPORT_STYLE } from '../../src/measure/report-style.js';
import { benchResult, lat, otherBuild } from '../helpers/bench-result.js';
import { buckets, pathStyles } from '../helpers/svg-text.js';

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
