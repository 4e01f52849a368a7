// The report pages' stylesheet (inline: the pages reference nothing outside themselves).
export const REPORT_STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:66em;color:#1d1d1f;padding:0 1em}
h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.15em;margin-top:1.8em}
table{border-collapse:collapse;margin:.5em 0;font-size:13px}th,td{padding:.25em .55em;text-align:right;border-bottom:1px solid #ddd}
th:first-child,td:first-child{text-align:left}th{background:#f4f4f6;font-weight:600}td{white-space:nowrap}
th{vertical-align:bottom}td.name{max-width:14em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.meta{color:#555}.note{color:#555;font-size:.92em;max-width:48em}code{background:#f4f4f6;padding:0 .25em}
.side{display:flex;gap:1.5em;align-items:flex-start;flex-wrap:wrap}.side .note{flex:1;min-width:16em;margin-top:.6em}
table.queued td:not(:first-child){color:#aaa}table.queued{background:repeating-linear-gradient(135deg,#fafafa 0 6px,#f3f3f3 6px 12px)}
.warn{background:#fff6e0;border-left:4px solid #e0a000;padding:.5em 1em;margin:1em 0}.warn li{margin:.2em 0}
.slower{color:#b3261e;font-weight:600}.faster{color:#1e7a34;font-weight:600}.same{color:#555}
details pre{background:#f4f4f6;padding:.5em;overflow:auto;max-height:16em}
svg{display:block;margin:1em 0;font:11px system-ui,sans-serif;max-width:100%;height:auto}
svg .title{font-size:13px;font-weight:600}svg .label,svg .legend{fill:#555;stroke:none}
svg .axis{stroke:#333}svg .grid{stroke:#eee}svg .bar{fill:#4a7bd0}
svg .cdf{fill:none;stroke:#4a7bd0;stroke-width:2}svg .cdf.base{stroke:#888;stroke-dasharray:5 3}svg .cdf.new{stroke:#c0392b}
svg .marker line{stroke-width:1.2;stroke-dasharray:4 3}svg .marker text{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
svg .percentile line{stroke:#c0392b}svg .percentile text{fill:#c0392b}
svg .baseline line{stroke:#777}svg .baseline text{fill:#555}
svg .st-queue{fill:#e8b04a}svg .st-transport{fill:#8e6cc0}svg .st-run{fill:#4a7bd0}svg .st-fold{fill:#7fb77e}
svg polyline.ot-p50,svg polyline.ot-p90,svg polyline.ot-base,svg line.ot-p50,svg line.ot-p90,svg line.ot-base{fill:none;stroke-width:1.6}
svg .ot-p50{stroke:#4a7bd0;fill:#4a7bd0}svg .ot-p90{stroke:#9db7e6;fill:#9db7e6}
svg .ot-base{stroke-dasharray:3 2}svg .ot-piscinaEcho{stroke:#999;fill:#999}svg .ot-spawnTrue{stroke:#666;fill:#666}svg .ot-quickJsEval{stroke:#bbb;fill:#bbb}`;
