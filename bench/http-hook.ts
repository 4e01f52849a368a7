// An http hook dispatched end to end against a local server (127.0.0.1), against the bare requests
// it is made of, interleaved in one run: a node:http POST on a fresh connection (what the http lane
// does: one connection per request, closed at its end) and a fetch POST on undici's keep-alive pool
// (what a connection pool would save, the price of "nothing outlives a request"), and a dispatch of
// a trusted no-op callback (the dispatch machinery without any request).
// Goal: p50 ≤ the bare fresh-connection POST + 0.5 ms (on loopback the POST itself is ~0.3 ms, so
// hookwarden's own part is stated in milliseconds rather than as a ratio).
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExecutor } from '../src/index.js';
import { BENCH_INPUT, fmt, interleavedLatency, type ScenarioReport } from './harness.js';

/** A POST of `body` on a connection of its own, read to its end. */
function postFresh(url: URL, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.end(body);
  });
}

export async function run(quick = false): Promise<ScenarioReport> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/deny') {
        const text = '{"decision":"deny","reason":"no"}';
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length }).end(text);
      } else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hook = (path: string) => ({
    config: { hooks: { BeforeTool: [{ hooks: [{ type: 'http', url: `${origin}${path}` }] }] } },
    allowedHttpHookUrls: [`${origin}/*`],
    onWarning: () => {},
  });
  const empty = await createExecutor(hook('/empty'));
  const deny = await createExecutor(hook('/deny'));
  const trusted = await createExecutor({ onWarning: () => {} });
  trusted.register({ event: 'BeforeTool', name: 'noop', handler: () => undefined });
  const body = JSON.stringify({ event: 'BeforeTool', ...BENCH_INPUT });
  const url = new URL(`${origin}/empty`);
  try {
    const r = await interleavedLatency(
      {
        'node:http POST, fresh connection': () => postFresh(url, body),
        'fetch POST, keep-alive pool': async () => {
          const res = await fetch(url, {
            method: 'POST',
            body,
            headers: { 'content-type': 'application/json' },
          });
          await res.arrayBuffer();
        },
        'hookwarden dispatch, http hook, 204': () => empty.dispatch('BeforeTool', BENCH_INPUT),
        'hookwarden dispatch, http hook, deny JSON': () => deny.dispatch('BeforeTool', BENCH_INPUT),
        'hookwarden dispatch, trusted no-op hook': () => trusted.dispatch('BeforeTool', BENCH_INPUT),
      },
      { warmup: quick ? 3 : 50, iterations: quick ? 10 : 1000 },
    );
    const base = r['node:http POST, fresh connection']!.p50;
    const rows = Object.entries(r).map(
      ([name, s]) => `| ${name} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${fmt(s.p50 / base, 2)}× |`,
    );
    const over = r['hookwarden dispatch, http hook, 204']!.p50 - base;
    return {
      title: 'http hook: end to end vs the bare POST',
      markdown: [
        '| variant | p50 ms | p90 ms | p99 ms | p50 vs fresh-connection POST |',
        '|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
      goals: [
        `http hook p50 ≤ bare fresh-connection POST + 0.5 ms: +${fmt(over)} ms — ${over <= 0.5 ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    await empty.close();
    await deny.close();
    await trusted.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
