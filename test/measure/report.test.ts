import { describe, expect, it } from 'vitest';
import { compareResults } from '../../src/measure/compare.js';
import { renderHtmlReport } from '../../src/measure/index.js';
import { createProgress, formatDuration } from '../../src/measure/progress.js';
import { renderCompareReport } from '../../src/measure/report-compare.js';
import { placeLabels } from '../../src/measure/report-log-chart.js';
import { formatMs } from '../../src/measure/report-svg.js';
import { benchResult, otherBuild } from '../helpers/bench-result.js';

const HOSTILE = '<img src=x onerror=alert(1)>';

function result(hookId = 'guard') {
  const r = benchResult();
  if (hookId !== 'guard') {
    r.perHook = { [hookId]: r.perHook.guard! };
    r.ratios.perHook = { [hookId]: r.ratios.perHook.guard! };
    r.stages.perHook = { [hookId]: r.stages.perHook.guard! };
    r.hooks = [{ ...r.hooks[0]!, id: hookId }];
    r.perHook[hookId]!.errors = { [HOSTILE]: 2 };
  }
  return r;
}

const svgCount = (html: string) => html.match(/<svg /g)?.length ?? 0;

describe('renderHtmlReport', () => {
  it('renders the description, four inline SVG charts (histogram, percentiles, over time, stages) and the tables, with no script or external reference', () => {
    const html = renderHtmlReport(result());
    expect(svgCount(html)).toBe(4);
    expect(html).not.toMatch(/https?:\/\/|src=|<script/i);
    for (const text of [
      'hookwarden 0.1.0 commit aaaaaaaaaaaa',
      'Where the time goes',
      'Latency over the run',
      'Dispatch latency by percentile',
      'fold &amp; result',
      'Per hook (ms)',
      'Ratios (p50 ÷ baseline p50)',
      'sha256:111111111111',
      'Input (digest',
      'While measured: the main thread waited for a CPU 0% of the measured time, some task waited 1% of it (PSI), steal 0%, load 0.20 → 0.25 per CPU',
    ])
      expect(html).toContain(text);
    // One bar segment per stage of the dispatch, and one point per block on each line of the strip.
    expect(html.match(/class="st-fold"><title>/g)).toHaveLength(1);
    expect(html.match(/<title>block \d+: dispatch p50 /g)).toHaveLength(10);
  });

  it('greys out the ratios and says why when dispatches queued behind each other', () => {
    expect(renderHtmlReport(result())).not.toContain('class="queued"');
    const html = renderHtmlReport({ ...result(), concurrency: 8 });
    expect(html).toContain('<table class="queued">');
    expect(html).toContain('Greyed: not like for like.');
  });

  it('shows the run warnings, failures per hook, and only the digest of a redacted input', () => {
    const r = result();
    r.warnings = ['high variance between blocks: …'];
    r.perHook.noop!.errors = { nonzero_exit: 3, timeout: 1 };
    r.input = { digest: r.input.digest, varied: true };
    const html = renderHtmlReport(r);
    expect(html).toContain('<div class="warn"><strong>Warnings</strong><ul><li>high variance between blocks');
    expect(html).toContain('<th>hook</th><th>nonzero_exit</th><th>timeout</th>');
    expect(html).toContain('Input: redacted');
    expect(html).not.toContain('toolName');
  });

  it('escapes hook ids, error codes and paths taken from config files, and shows names in full', () => {
    const html = renderHtmlReport({ ...result(HOSTILE), config: ['conf/"hooks".json'] });
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('conf/&quot;hooks&quot;.json');
    expect(html).not.toContain('<img');
    expect(html).toContain('<td class="name">&lt;img src=x onerror=alert(1)&gt;</td>');
  });

  it('renders a run with no hook and no sample without failing', () => {
    const r = result();
    const html = renderHtmlReport({
      ...r,
      perHook: {},
      ratios: { ...r.ratios, perHook: {} },
      histogram: [],
      blocks: [],
      stages: { overall: { queueMs: 0, transportMs: 0, runMs: 0, foldMs: 0, totalMs: 0 }, perHook: {} },
    });
    expect(svgCount(html)).toBe(4);
    expect(html).not.toContain('NaN');
    expect(html).not.toContain('Infinity');
  });
});

describe('chart labels', () => {
  it('labels latencies compactly', () => {
    expect([0.05, 0.25, 3.2, 150, 2000].map(formatMs)).toEqual(['0.05', '0.25', '3.2', '150', '2 s']);
  });

  it('places marker labels so that none overlaps another, even when the markers bunch up', () => {
    const texts = ['p50 7.98', 'p90 13.7', 'p99 17.3', 'p99.9 19.3', 'echo 0.32', 'eval 0.55', 'spawn 3.75'];
    const xs = [420, 452, 460, 463, 110, 150, 380];
    const places = placeLabels(xs, texts);
    const boxes = places.map((p, i) => ({
      row: p.row,
      from: p.x - (texts[i]!.length * 6.2) / 2,
      to: p.x + (texts[i]!.length * 6.2) / 2,
    }));
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        if (a.row === b.row) expect(a.to <= b.from || b.to <= a.from).toBe(true);
    expect(Math.max(...places.map((p) => p.row))).toBeLessThan(4);
  });
});

describe('renderCompareReport', () => {
  it('overlays both CDFs and shows each verdict', () => {
    const base = benchResult();
    const next = benchResult(
      {
        noop: base.blocks.map((b) => b.perHook.noop! * 3),
        overall: base.blocks.map((b) => b.overall.p50 * 3),
      },
      otherBuild,
    );
    const html = renderCompareReport(base, next, compareResults(base, next), 'base.json', 'new.json');
    expect(html).toContain('class="cdf base"');
    expect(html).toContain('class="cdf new"');
    expect(html).toContain('<td class="slower">slower</td>');
    expect(html).toContain('Regression: a series got significantly slower, beyond its noise floor (exit 1).');
    expect(html).not.toMatch(/https?:\/\/|src=|<script/i);
  });
});

describe('createProgress', () => {
  const stream = (isTTY: boolean) => {
    const writes: string[] = [];
    return { isTTY, columns: 100, write: (s: string) => writes.push(s), writes };
  };

  it('draws a bar with the rate and the time left in place on a terminal, and erases it at the end', () => {
    const s = stream(true);
    let t = 0;
    const p = createProgress(s, 'bench', { now: () => t });
    t = 1000;
    p.update(1, 4);
    t = 4000;
    p.update(4, 4);
    p.finish();
    expect(s.writes[0]).toMatch(/^\r\x1b\[2Kbench .* 25% 1\/4 1\/s ETA 3 s$/);
    expect(s.writes.at(-2)).toMatch(/100% 4\/4 1\/s ETA 0 s/);
    expect(s.writes.at(-1)).toBe('\r\x1b[2K');
  });

  it('off a terminal, writes one plain line per interval, and nothing to erase', () => {
    const s = stream(false);
    let t = 0;
    const p = createProgress(s, 'bench', { now: () => t, logIntervalMs: 5000 });
    for (let done = 1; done <= 100; done++) {
      t = done * 200; // 20 s in all
      p.update(done, 100);
    }
    p.finish();
    expect(s.writes).toEqual([
      'bench: 25/100 dispatches (25%), 5/s, about 15 s left\n',
      'bench: 50/100 dispatches (50%), 5/s, about 10 s left\n',
      'bench: 75/100 dispatches (75%), 5/s, about 5 s left\n',
      'bench: 100/100 dispatches (100%), 5/s, about 0 s left\n',
    ]);
  });

  it('formats durations', () => {
    expect([900, 42_000, 185_000, 3_725_000].map(formatDuration)).toEqual([
      '1 s',
      '42 s',
      '3 min 05 s',
      '1 h 02 min',
    ]);
  });
});
