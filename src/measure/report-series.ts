// How the report's line charts tell their series apart by more than hue: each series has a colour
// (Okabe-Ito's colour-blind-safe palette), a dash pattern and a marker shape, in cycles of different
// lengths so that no two of the first 35 share all three, and each line is named at its end (a
// direct label, moved apart from its neighbours, with a leader when moved). The captions name the
// styles in words from the same table, so that a caption always matches its chart.
import { escapeHtml, r1, textWidth } from './report-axes.js';

/** Okabe & Ito's palette, without black (the whole dispatch's) and the yellow (too pale on white). */
const COLOURS = [
  { hex: '#E69F00', ink: '#A86F00', name: 'orange' },
  { hex: '#0072B2', ink: '#0072B2', name: 'blue' },
  { hex: '#009E73', ink: '#007A59', name: 'green' },
  { hex: '#CC79A7', ink: '#B0508A', name: 'pink' },
  { hex: '#56B4E9', ink: '#2B82B8', name: 'sky blue' },
  { hex: '#D55E00', ink: '#C05500', name: 'vermilion' },
  { hex: '#8C6D1F', ink: '#8C6D1F', name: 'brown' },
] as const;
const DASHES = [
  { array: '', name: 'solid' },
  { array: '7 3', name: 'dashed' },
  { array: '1.5 3', name: 'dotted' },
  { array: '8 3 2 3', name: 'dash-dot' },
  { array: '14 4', name: 'long-dashed' },
] as const;
const MARKERS = [
  { shape: 'circle', plural: 'circles' },
  { shape: 'square', plural: 'squares' },
  { shape: 'triangle', plural: 'triangles' },
  { shape: 'diamond', plural: 'diamonds' },
  { shape: 'triangle-down', plural: 'triangles pointing down' },
  { shape: 'plus', plural: 'plus signs' },
  { shape: 'cross', plural: 'crosses' },
  { shape: 'star', plural: 'stars' },
] as const;
type MarkerShape = (typeof MARKERS)[number]['shape'];

/** A series' look: stroke colour, dash, marker, and the words for them. */
export interface SeriesLook {
  colour: string;
  /** The colour of its text: the same hue, dark enough to read on white. */
  ink: string;
  dash: string;
  marker: MarkerShape;
  /** Filled marker (true) or hollow. */
  filled: boolean;
  width: number;
  /** `orange dashed, triangles` */
  words: string;
}

/** The i-th series' look (0-based); the whole dispatch has its own (`MAIN_LOOK`). */
export function seriesLook(i: number): SeriesLook {
  const c = COLOURS[i % COLOURS.length]!;
  const d = DASHES[i % DASHES.length]!;
  const m = MARKERS[i % MARKERS.length]!;
  return {
    colour: c.hex,
    ink: c.ink,
    dash: d.array,
    marker: m.shape,
    filled: true,
    width: 1.8,
    words: `${c.name} ${d.name}, ${m.plural}`,
  };
}

/** The whole dispatch: thick black, solid, filled circles. */
export const MAIN_LOOK: SeriesLook = {
  colour: '#1d1d1f',
  ink: '#1d1d1f',
  dash: '',
  marker: 'circle',
  filled: true,
  width: 2.6,
  words: 'thick black solid, circles',
};

/** The style attribute of a series' line. */
export const lineStyle = (l: SeriesLook) =>
  `fill:none;stroke:${l.colour};stroke-width:${l.width}${l.dash === '' ? '' : `;stroke-dasharray:${l.dash}`}`;

/** A marker of `shape` centred on (x, y), radius about `r`. */
export function markerSvg(l: SeriesLook, x: number, y: number, r = 4, title = ''): string {
  const style = l.filled
    ? `fill:${l.colour};stroke:${l.colour};stroke-width:1`
    : `fill:#fff;stroke:${l.colour};stroke-width:1.5`;
  const t = title === '' ? '' : `<title>${escapeHtml(title)}</title>`;
  const pts = (list: [number, number][]) => list.map(([a, b]) => `${r1(x + a)},${r1(y + b)}`).join(' ');
  switch (l.marker) {
    case 'circle':
      return `<circle cx="${r1(x)}" cy="${r1(y)}" r="${r}" style="${style}">${t}</circle>`;
    case 'square':
      return `<rect x="${r1(x - r * 0.85)}" y="${r1(y - r * 0.85)}" width="${r1(r * 1.7)}" height="${r1(r * 1.7)}" style="${style}">${t}</rect>`;
    case 'triangle':
      return `<polygon points="${pts([
        [0, -r * 1.15],
        [r, r * 0.75],
        [-r, r * 0.75],
      ])}" style="${style}">${t}</polygon>`;
    case 'triangle-down':
      return `<polygon points="${pts([
        [0, r * 1.15],
        [r, -r * 0.75],
        [-r, -r * 0.75],
      ])}" style="${style}">${t}</polygon>`;
    case 'diamond':
      return `<polygon points="${pts([
        [0, -r * 1.2],
        [r, 0],
        [0, r * 1.2],
        [-r, 0],
      ])}" style="${style}">${t}</polygon>`;
    case 'star':
      return `<polygon points="${pts(
        Array.from({ length: 10 }, (_, k): [number, number] => {
          const a = (k * Math.PI) / 5 - Math.PI / 2;
          const rr = k % 2 === 0 ? r * 1.3 : r * 0.55;
          return [rr * Math.cos(a), rr * Math.sin(a)];
        }),
      )}" style="${style}">${t}</polygon>`;
    case 'plus':
    case 'cross': {
      const k = l.marker === 'plus' ? 0 : Math.PI / 4;
      const arm = (a: number) =>
        `M${r1(x - r * Math.cos(a))},${r1(y - r * Math.sin(a))}L${r1(x + r * Math.cos(a))},${r1(y + r * Math.sin(a))}`;
      return `<path d="${arm(k)}${arm(k + Math.PI / 2)}" style="fill:none;stroke:${l.colour};stroke-width:2">${t}</path>`;
    }
  }
}

/** A legend sample: a short line in the series' style with its marker in the middle. */
export function legendSample(l: SeriesLook, x: number, y: number, w = 26): string {
  return `<line x1="${r1(x)}" y1="${r1(y)}" x2="${r1(x + w)}" y2="${r1(y)}" style="${lineStyle(l)}"/>${markerSvg(l, x + w / 2, y, 3.5)}`;
}

/** One line's end, to be named there. */
export interface EndLabel {
  text: string;
  /** Where the line ends. */
  x: number;
  y: number;
  look: SeriesLook;
}

/**
 * The names at the lines' ends, in a column from `x0`: each at its line's height when it fits,
 * otherwise moved the least so that none overlaps another (13 px apart) within [top, bottom], with a
 * thin leader to its line's end when it moved.
 */
export function endLabels(
  labels: readonly EndLabel[],
  x0: number,
  top: number,
  bottom: number,
  maxWidth = 220,
): string[] {
  const GAP = 13;
  const order = labels.map((_, i) => i).sort((a, b) => labels[a]!.y - labels[b]!.y);
  const ys = order.map((i) => labels[i]!.y);
  // Push down from the top, then up from the bottom: the smallest moves that keep GAP between them.
  for (let k = 0; k < ys.length; k++) ys[k] = Math.max(ys[k]!, k === 0 ? top : ys[k - 1]! + GAP);
  for (let k = ys.length - 1; k >= 0; k--)
    ys[k] = Math.min(ys[k]!, k === ys.length - 1 ? bottom : ys[k + 1]! - GAP);
  const out: string[] = [];
  order.forEach((i, k) => {
    const l = labels[i]!;
    const y = ys[k]!;
    if (Math.abs(y - l.y) > 2)
      out.push(
        `<line x1="${r1(l.x + 2)}" y1="${r1(l.y)}" x2="${r1(x0 - 2)}" y2="${r1(y)}" style="stroke:${l.look.colour};stroke-width:0.8"/>`,
      );
    out.push(
      `<text x="${r1(x0)}" y="${r1(y + 4)}" class="end-label" style="fill:${l.look.ink}"><title>${escapeHtml(l.text)}</title>${escapeHtml(fitText(l.text, maxWidth))}</text>`,
    );
  });
  return out;
}

/** `text`, cut with an ellipsis to fit `width` px at the charts' font. */
function fitText(text: string, width: number): string {
  const chars = [...text];
  if (textWidth(text) <= width) return text;
  let n = chars.length;
  while (n > 1 && textWidth(`${chars.slice(0, n).join('')}…`) > width) n--;
  return `${chars.slice(0, n).join('')}…`;
}

/** The width the end labels take: the widest of them, within [min, max]. */
export const endLabelWidth = (texts: readonly string[], min = 60, max = 220) =>
  Math.min(max, Math.max(min, ...texts.map((t) => textWidth(t) + 8)));
