// The report pages' stylesheet (inline: the pages reference nothing outside themselves), and the
// one table of how the baselines look. Charts take the page's whole width; text keeps a readable
// measure. The baselines are reference lines, not data: greys, each with a dash of its own and its
// name at the line (`bl-*`), the same in every chart; the data series have the colours (report-series.ts).
import { BASELINE_NAMES, type BaselineName } from './baselines.js';
import type { SeriesLook } from './report-series.js';

/** Each baseline's look in every chart, and its words for the captions. */
export const BASELINE_LOOKS: Readonly<Record<BaselineName, SeriesLook>> = {
  piscinaEcho: {
    colour: '#5b5b66',
    ink: '#5b5b66',
    dash: '1.5 3',
    marker: 'diamond',
    filled: false,
    width: 1.6,
    words: 'grey dotted',
  },
  spawnTrue: {
    colour: '#6e6e78',
    ink: '#5b5b66',
    dash: '7 3',
    marker: 'square',
    filled: false,
    width: 1.6,
    words: 'grey dashed',
  },
  quickJsEval: {
    colour: '#84848e',
    ink: '#5b5b66',
    dash: '9 3 2 3',
    marker: 'triangle',
    filled: false,
    width: 1.6,
    words: 'grey dash-dot',
  },
};

/** The red of the percentile markers of the histogram (and of slower verdicts). */
const PERCENTILE_RED = '#c0392b';

const baselineCss = BASELINE_NAMES.map((n) => {
  const l = BASELINE_LOOKS[n];
  return [
    `svg .bl-${n}{stroke:${l.colour};stroke-dasharray:${l.dash};stroke-linecap:round}`,
    `svg circle.bl-${n}{fill:#fff;stroke:${l.colour};stroke-dasharray:none}`,
    `svg .marker.bl-${n} line{stroke:${l.colour};stroke-dasharray:${l.dash};stroke-width:1.6}svg .marker.bl-${n} text{fill:${l.ink}}`,
  ].join('');
}).join('\n');

export const REPORT_STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1500px;color:#1d1d1f;padding:0 1.5em}
h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.15em;margin-top:1.8em}
p,ul,.warn,div.security,details{max-width:60em}
table{border-collapse:collapse;margin:.5em 0;font-size:13px}th,td{padding:.25em .55em;text-align:right;border-bottom:1px solid #ddd}
th:first-child,td:first-child{text-align:left}th{background:#f4f4f6;font-weight:600}td{white-space:nowrap;font-variant-numeric:tabular-nums}
th{vertical-align:bottom}td.name{white-space:normal;overflow-wrap:anywhere;min-width:8em;max-width:30em}td.reason{white-space:normal;text-align:left;max-width:40em}
.meta{color:#555}.note{color:#555;font-size:.92em;max-width:60em}code{background:#f4f4f6;padding:0 .25em}
.side{display:flex;gap:1.5em;align-items:flex-start;flex-wrap:wrap}.side .note{flex:1;min-width:16em;margin-top:.6em}
table.queued td:not(:first-child){color:#aaa}table.queued{background:repeating-linear-gradient(135deg,#fafafa 0 6px,#f3f3f3 6px 12px)}
.warn{background:#fff6e0;border-left:4px solid #e0a000;padding:.5em 1em;margin:1em 0}.warn li{margin:.2em 0}
div.security{background:#fdecea;border-left:4px solid #b3261e;color:#b3261e;padding:.5em 1em;margin:1em 0;font-weight:600}
td.security{background:#fdecea;color:#b3261e;font-weight:700}
.slower{color:#b3261e;font-weight:600}.faster{color:#1e7a34;font-weight:600}.same{color:#555}.inconclusive{color:#8a5a00;font-weight:600}
p.outcome{font-size:1.1em;padding:.4em .8em;border-left:4px solid currentColor;background:#f8f8fa}
details pre{background:#f4f4f6;padding:.5em;overflow:auto;max-height:16em}
figure.chart{margin:1.2em 0 1.6em}figure.chart figcaption{color:#555;font-size:.92em;max-width:60em;margin-top:.3em}
svg{display:block;font:11px system-ui,sans-serif;width:100%;height:auto}
svg .title{font-size:13px;font-weight:600}svg .label,svg .legend{fill:#444;stroke:none}svg .end-label{font-size:11px;font-weight:600}
svg .axis{stroke:#333}svg .grid{stroke:#eee}svg .grid.major{stroke:#d4d4d8}svg .bar{fill:#4a7bd0}
svg .cdf{fill:none;stroke:#4a7bd0;stroke-width:2}
svg .marker line{stroke-width:1.2;stroke-dasharray:4 3}svg .marker text{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
svg .percentile line,svg line.percentile{stroke:${PERCENTILE_RED};stroke-width:1.2;stroke-dasharray:4 3}svg .percentile text{fill:${PERCENTILE_RED}}
svg .baseline line,svg line.baseline{stroke:#777;stroke-width:1.2;stroke-dasharray:4 3}svg .baseline text{fill:#444}
svg .bl{fill:none;stroke-width:1.6}
${baselineCss}
svg .st-queue{fill:#e8b04a}svg .st-transport{fill:#8e6cc0}svg .st-run{fill:#4a7bd0}svg .st-fold{fill:#7fb77e}
svg text.on-bar{fill:#fff;font-size:10px;font-weight:600}svg .wait{fill:#9c9ca6}svg .wait-band{fill:#f1f1f4}
svg .marker.cmp-base line,svg line.cmp-base{stroke:#6e6e78;stroke-dasharray:7 3;stroke-width:1.4}svg .marker.cmp-base text{fill:#55555e}
svg .marker.cmp-new line,svg line.cmp-new{stroke:#D55E00;stroke-dasharray:3 2;stroke-width:1.4}svg .marker.cmp-new text{fill:#C05500}`;
