// The report pages' stylesheet (inline: the pages reference nothing outside themselves). Each
// baseline has its own colour and dash in every chart (`bl-*`), the percentile plot's series their
// own colours (`pc-*`, Tableau 10), and names in tables wrap instead of being cut.
export const REPORT_STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:66em;color:#1d1d1f;padding:0 1em}
h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.15em;margin-top:1.8em}
table{border-collapse:collapse;margin:.5em 0;font-size:13px}th,td{padding:.25em .55em;text-align:right;border-bottom:1px solid #ddd}
th:first-child,td:first-child{text-align:left}th{background:#f4f4f6;font-weight:600}td{white-space:nowrap;font-variant-numeric:tabular-nums}
th{vertical-align:bottom}td.name{white-space:normal;overflow-wrap:anywhere;min-width:8em;max-width:30em}
.meta{color:#555}.note{color:#555;font-size:.92em;max-width:48em}code{background:#f4f4f6;padding:0 .25em}
.side{display:flex;gap:1.5em;align-items:flex-start;flex-wrap:wrap}.side .note{flex:1;min-width:16em;margin-top:.6em}
table.queued td:not(:first-child){color:#aaa}table.queued{background:repeating-linear-gradient(135deg,#fafafa 0 6px,#f3f3f3 6px 12px)}
.warn{background:#fff6e0;border-left:4px solid #e0a000;padding:.5em 1em;margin:1em 0}.warn li{margin:.2em 0}
div.security{background:#fdecea;border-left:4px solid #b3261e;color:#b3261e;padding:.5em 1em;margin:1em 0;font-weight:600}
td.security{background:#fdecea;color:#b3261e;font-weight:700}
.slower{color:#b3261e;font-weight:600}.faster{color:#1e7a34;font-weight:600}.same{color:#555}
details pre{background:#f4f4f6;padding:.5em;overflow:auto;max-height:16em}
svg{display:block;margin:1em 0;font:11px system-ui,sans-serif;max-width:100%;height:auto}
svg .title{font-size:13px;font-weight:600}svg .label,svg .legend{fill:#444;stroke:none}
svg .axis{stroke:#333}svg .grid{stroke:#eee}svg .grid.major{stroke:#d4d4d8}svg .bar{fill:#4a7bd0}
svg .cdf{fill:none;stroke:#4a7bd0;stroke-width:2}svg .cdf.base{stroke:#777;stroke-dasharray:6 3}svg .cdf.new{stroke:#c0392b}
svg .marker line{stroke-width:1.2;stroke-dasharray:4 3}svg .marker text{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
svg .percentile line,svg line.percentile{stroke:#c0392b;stroke-width:1.2;stroke-dasharray:4 3}svg .percentile text{fill:#c0392b}
svg .baseline line,svg line.baseline{stroke:#777;stroke-width:1.2;stroke-dasharray:4 3}svg .baseline text{fill:#444}
svg .bl{fill:none;stroke-width:1.6}svg .bl-piscinaEcho{stroke:#7b5aa6;stroke-dasharray:1.5 3;stroke-linecap:round}
svg .bl-spawnTrue{stroke:#2a7f62;stroke-dasharray:7 3}svg .bl-quickJsEval{stroke:#b5651d;stroke-dasharray:7 2 1.5 2}
svg circle.bl-piscinaEcho{fill:#7b5aa6}svg circle.bl-spawnTrue{fill:#2a7f62}svg circle.bl-quickJsEval{fill:#b5651d}
svg .marker.bl-piscinaEcho line{stroke:#7b5aa6;stroke-dasharray:1.5 3;stroke-linecap:round;stroke-width:1.6}svg .marker.bl-piscinaEcho text{fill:#7b5aa6}
svg .marker.bl-spawnTrue line{stroke:#2a7f62;stroke-dasharray:7 3;stroke-width:1.6}svg .marker.bl-spawnTrue text{fill:#2a7f62}
svg .marker.bl-quickJsEval line{stroke:#b5651d;stroke-dasharray:7 2 1.5 2;stroke-width:1.6}svg .marker.bl-quickJsEval text{fill:#b5651d}
svg .st-queue{fill:#e8b04a}svg .st-transport{fill:#8e6cc0}svg .st-run{fill:#4a7bd0}svg .st-fold{fill:#7fb77e}
svg text.on-bar{fill:#fff;font-size:10px;font-weight:600}
svg polyline.ot{fill:none;stroke-width:1.6}svg .ot-p50{stroke:#1f4e9c;fill:#1f4e9c}svg .ot-p90{stroke:#8fb0e8;fill:#8fb0e8}
svg path.pc,svg line.pc{fill:none;stroke-width:1.8}svg .pc-main{stroke:#1d1d1f;stroke-width:2.6}
svg .pc-0{stroke:#4e79a7}svg .pc-1{stroke:#f28e2b}svg .pc-2{stroke:#e15759}svg .pc-3{stroke:#76b7b2}svg .pc-4{stroke:#59a14f}
svg .pc.cmp-base{stroke:#777;stroke-dasharray:6 3;stroke-width:2.2}svg .pc-5{stroke:#edc948}svg .pc-6{stroke:#b07aa1}svg .pc-7{stroke:#ff9da7}svg .pc-8{stroke:#9c755f}svg .pc-9{stroke:#bab0ac}`;
