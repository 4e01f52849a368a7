// Matchers and `if` filters: hookwarden's own linear-time engine (src/registry/regex/) against
// re2js (a JavaScript port of RE2), on the patterns a dispatch meets every time (short tool names and
// commands) and on pathological ones over long inputs. Both engines are linear; the question is which
// is faster where, and which can stop a search at a step budget (only ours: re2js has no such hook,
// and "when in doubt, run the guard" needs one). Latency per search, interleaved, medians.
import { RE2JS } from 're2js';
import { LinearRegex } from '../src/registry/regex/linear-regex.js';
import { fmt, interleavedLatency, type ScenarioReport } from './harness.js';

const cases = (k: number): [name: string, pattern: string, input: string][] => [
  ['tool name, regex matcher', 'mcp__.*__create', 'mcp__github__create_issue'],
  ['if glob on a command', '^git push[\\s\\S]*$', 'git push origin main --force'],
  [`if glob over a ${10 * k} KB Write`, '^[\\s\\S]*\\.env$', 'x'.repeat(10_000 * k)],
  [`(a+)+$ over ${k} KB`, '(a+)+$', `${'a'.repeat(1000 * k)}b`],
  [`(a|aa){700}b over ${k} KB, b present`, '(a|aa){700}b', `b${'a'.repeat(1000 * k)}`],
];

export async function run(quick = false): Promise<ScenarioReport> {
  const rows: string[] = [];
  let oursWins = 0;
  const CASES = cases(quick ? 1 : 20);
  for (const [name, pattern, input] of CASES) {
    const ours = new LinearRegex(pattern);
    const re2 = RE2JS.compile(pattern);
    if (ours.test(input) !== re2.matcher(input).find()) throw new Error(`the engines disagree on ${name}`);
    const heavy = input.length > 1000;
    const r = await interleavedLatency(
      {
        hookwarden: async () => ours.test(input),
        re2js: async () => re2.matcher(input).find(),
      },
      { warmup: quick ? 1 : heavy ? 3 : 200, iterations: quick ? 2 : heavy ? 9 : 2000 },
    );
    const a = r.hookwarden!.p50;
    const b = r.re2js!.p50;
    if (a <= b) oursWins++;
    rows.push(`| ${name} | ${fmt(a * 1000, 2)} µs | ${fmt(b * 1000, 2)} µs | ${fmt(b / a, 2)}× |`);
  }
  return {
    title: 'Regex engines: hookwarden vs re2js',
    markdown: [
      'p50 of one search (interleaved). hookwarden checks a literal every match needs first, then runs its',
      "Pike VM under the dispatch's step budget; re2js runs to the end (it has no budget).",
      '',
      '| case | hookwarden | re2js | re2js ÷ hookwarden |',
      '|---|---|---|---|',
      ...rows,
    ].join('\n'),
    goals: [`hookwarden as fast or faster in ${oursWins} of ${CASES.length} cases; re2js has no step budget`],
  };
}
