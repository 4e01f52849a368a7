// Reading the report's SVG as a person would: its texts with their anchors and lines, whether they
// stay inside the picture, and the styles of a percentile plot's lines.
import { expect } from 'vitest';
import { textWidth } from '../../src/measure/report-axes.js';

export const buckets = (values: number[]) => values.map((v) => ({ fromMs: v * 0.95, toMs: v, count: 10 }));

export const unentity = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');

/**
 * Every `<text>` of an SVG: its x, its anchor, its class, whether it is turned, its content (tspans
 * joined) and its lines (one per tspan).
 */
export function texts(svg: string) {
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
export function expectInside(svg: string): void {
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

/** The styles of a percentile plot's lines, by their titles. */
export const pathStyles = (svg: string) =>
  Object.fromEntries(
    [...svg.matchAll(/<path d="M[^"]+" class="pc" style="([^"]+)"><title>([^<]+)<\/title>/g)].map((m) => [
      unentity(m[2]!),
      m[1]!,
    ]),
  );
