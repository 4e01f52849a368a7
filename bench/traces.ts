// What traces cost (issue 43), in one run, variants interleaved (round-robin, one call at a time):
//   1. `hookwarden serve` with traces off and with traces on (OTEL_EXPORTER_OTLP_ENDPOINT: an
//      OTLP/HTTP receiver in this process; OTEL_TRACES_SAMPLER=always_on, every trace kept), both sent
//      a fresh sampled `traceparent` per request: the fast path and one JS hook. Goal: p50 with traces
//      ≤ 1.1× without.
//   2. The library in this process: dispatch() without a tracer and with one (the same SDK: always on,
//      batch processor, OTLP exporter to the receiver). Reported, no goal: a span costs a few
//      microseconds, and a library fast path is a fraction of one.
//   3. With HOOKWARDEN_BENCH_BEFORE=<a built checkout>/bin/hookwarden: that build's library without a
//      tracer beside this one's, to show that no tracer costs nothing.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { AlwaysOnSampler, BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { Pool } from 'undici';
import { createExecutor, type Executor } from '../src/index.js';
import { TRIVIAL_HOOK } from '../src/measure/baselines.js';
import {
  BENCH_INPUT,
  fmt,
  fmtRate,
  interleavedLatency,
  interleavedThroughput,
  type ScenarioReport,
  type Stats,
} from './harness.js';
import { startProcess } from './serve-client.js';

const BIN = fileURLToPath(new URL('../../bin/hookwarden', import.meta.url));
const js = { type: 'js', code: TRIVIAL_HOOK };
// BENCH_INPUT is a Bash call: the Write matcher never matches (the fast path).
const CONFIG = {
  hooks: { BeforeTool: [{ matcher: 'Write', hooks: [js] }], AfterTool: [{ hooks: [js] }] },
};
const BODY = JSON.stringify(BENCH_INPUT);

/** An OTLP/HTTP receiver that takes every export (and counts the bytes). */
async function receiver(): Promise<{ url: string; server: Server; bytes: () => number }> {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (c: Buffer) => {
      bytes += c.length;
    });
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, bytes: () => bytes };
}

/** POSTs the bench input with a fresh sampled traceparent; rejects on anything but 200. */
async function tracedPost(pool: Pool, event: string): Promise<void> {
  const res = await pool.request({
    path: `/v1/dispatch/${event}`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`,
    },
    body: BODY,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
}

const row = (name: string, s: Stats, base: Stats) =>
  `| ${name} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${fmt(s.p50 / base.p50, 2)}× |`;

export async function run(quick = false): Promise<ScenarioReport> {
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-traces-'));
  const config = join(dir, 'hooks.json');
  writeFileSync(config, JSON.stringify(CONFIG));
  const otlp = await receiver();
  const args = [BIN, 'serve', '-c', config, '--listen', '127.0.0.1:0', '--log-level', 'warn'];
  const off = await startProcess(args, { ...process.env, OTEL_SDK_DISABLED: 'true' });
  const on = await startProcess(args, {
    ...process.env,
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_TRACES_SAMPLER: 'always_on',
  });
  const provider = new TracerProvider({
    sampler: new AlwaysOnSampler(),
    spanProcessors: [
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${otlp.url}/v1/traces` }) }),
    ],
  });
  const executors: Executor[] = [];
  const open = async (o: object, create = createExecutor) => {
    const e = await create({ config, onWarning: () => {}, ...o });
    executors.push(e);
    return e;
  };
  const pools = [new Pool(off.url, { connections: 1 }), new Pool(on.url, { connections: 1 })];
  try {
    const plain = await open({});
    const traced = await open({ tracer: provider.getTracer('bench') });
    const beforeBin = process.env.HOOKWARDEN_BENCH_BEFORE || undefined;
    const beforeLabel = process.env.HOOKWARDEN_BENCH_BEFORE_LABEL ?? 'before';
    const before =
      beforeBin === undefined
        ? undefined
        : await open(
            {},
            (await import(pathToFileURL(join(dirname(dirname(beforeBin)), 'dist/src/index.js')).href))
              .createExecutor as typeof createExecutor,
          );
    const markdown: string[] = [];
    const goals: string[] = [];
    for (const [what, event] of [
      ['fast path (no hook matches)', 'BeforeTool'],
      ['one JS hook', 'AfterTool'],
    ] as const) {
      const OFF = `serve, traces off: ${what}`;
      const ON = `serve, traces on (sampled 100%): ${what}`;
      const LIB = `library dispatch(), no tracer: ${what}`;
      const LIB_ON = `library dispatch(), tracer (sampled 100%): ${what}`;
      const BEFORE = `${beforeLabel}: library dispatch(): ${what}`;
      const lat = await interleavedLatency(
        {
          [OFF]: () => tracedPost(pools[0]!, event),
          [ON]: () => tracedPost(pools[1]!, event),
          [LIB]: () => plain.dispatch(event, BENCH_INPUT),
          [LIB_ON]: () => traced.dispatch(event, BENCH_INPUT),
          ...(before === undefined ? {} : { [BEFORE]: () => before.dispatch(event, BENCH_INPUT) }),
        },
        { warmup: quick ? 5 : 500, iterations: quick ? 20 : 4000 },
      );
      const ratio = lat[ON]!.p50 / lat[OFF]!.p50;
      markdown.push(
        `| ${what} | p50 ms | p90 ms | p99 ms | p50 vs traces off (serve) or no tracer (library) |`,
        '|---|---|---|---|---|',
        row(OFF, lat[OFF]!, lat[OFF]!),
        row(ON, lat[ON]!, lat[OFF]!),
        row(LIB, lat[LIB]!, lat[LIB]!),
        row(LIB_ON, lat[LIB_ON]!, lat[LIB]!),
        ...(before === undefined ? [] : [row(BEFORE, lat[BEFORE]!, lat[LIB]!)]),
        '',
      );
      goals.push(
        `serve ${what}: p50 with traces (100%) ≤ 1.1× without: ${fmt(ratio, 2)}× — ${ratio <= 1.1 ? 'met' : 'NOT met'}`,
      );
      goals.push(
        `library ${what}: p50 with a tracer (100%) vs none: ${fmt(lat[LIB_ON]!.p50 / lat[LIB]!.p50, 2)}× (+${fmt((lat[LIB_ON]!.p50 - lat[LIB]!.p50) * 1000, 1)} µs; reported, no goal)`,
      );
      if (before !== undefined)
        goals.push(
          `library ${what}, no tracer: this build vs ${beforeLabel}: ${fmt(lat[LIB]!.p50 / lat[BEFORE]!.p50, 2)}× (reported: without a tracer nothing of OpenTelemetry is loaded)`,
        );
    }
    if (before !== undefined) {
      // The library's fast path without a tracer, as throughput in interleaved blocks (a p50 of a few
      // microseconds is too coarse to compare builds by).
      const THIS = 'this build, no tracer';
      const thr = await interleavedThroughput(
        {
          [THIS]: () => plain.dispatch('BeforeTool', BENCH_INPUT),
          [beforeLabel]: () => before.dispatch('BeforeTool', BENCH_INPUT),
        },
        { blockOps: quick ? 200 : 100_000, blocks: quick ? 1 : 9 },
      );
      const r = thr[THIS]!.median / thr[beforeLabel]!.median;
      markdown.push(
        '| library fast path, no tracer | dispatches/s (median of blocks) | range | vs before |',
        '|---|---|---|---|',
        ...[THIS, beforeLabel].map(
          (k) =>
            `| ${k} | ${fmtRate(thr[k]!.median)} | ${fmtRate(thr[k]!.min)}–${fmtRate(thr[k]!.max)} | ${fmt(thr[k]!.median / thr[beforeLabel]!.median, 2)}× |`,
        ),
        '',
      );
      goals.push(
        `library fast path without a tracer, throughput vs ${beforeLabel}: ${fmt(r, 2)}× (reported)`,
      );
    }
    await provider.forceFlush();
    markdown.push(`The receiver took ${Math.round(otlp.bytes() / 1024)} KiB of OTLP protobuf in this run.`);
    return {
      title: 'Traces: what a span per dispatch and per hook costs (issue 43)',
      markdown: markdown.join('\n'),
      goals,
    };
  } finally {
    await Promise.all(pools.map((p) => p.close()));
    await Promise.all(executors.map((e) => e.close()));
    await provider.shutdown();
    await Promise.all([off.stop(), on.stop()]);
    otlp.server.closeAllConnections();
    otlp.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
