// The library's spans, with a caller's own OpenTelemetry SDK (TracerProvider, in-memory exporter):
// a dispatch's span under the caller's context, a span per hook record timed where its lane took it,
// an async run linked to its dispatch; a failed dispatch names only its error code. Without a tracer
// the OpenTelemetry API is never even loaded (a child process lists what it loads).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { context, type Span, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterAll, describe, expect, it } from 'vitest';
import { ATTR } from '../../src/audit/tracing.js';
import { createExecutor, type Executor } from '../../src/index.js';
import { completions } from '../helpers/async.js';
import { input, printing, tempDir } from '../helpers/fixture.js';
import { WASI_PRELUDE, wasmConfig, wat } from '../helpers/wasm.js';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const tracer = provider.getTracer('test');
afterAll(() => provider.shutdown());

const js = (name: string, body: string) => ({ type: 'js', name, code: `export default (i) => (${body})` });
const SECRET = 'SECRET-tool-input-7f3a';
const config = {
  hooks: {
    BeforeTool: [
      {
        hooks: [
          js('first', '{ additionalContext: "a" }'),
          js('second', `{ decision: "allow", reason: "saw " + i.toolInput.command }`),
          printing({}, { name: 'cmd' }),
          printing({}, { name: 'later', async: true }),
        ],
      },
    ],
  },
  tenants: { acme: { hooks: { AfterTool: [{ hooks: [js('acme-after', '{}')] }] } } },
};

let hw: Executor;
const open = async () => (hw ??= await createExecutor({ config, tracer, onWarning: () => {} }));
afterAll(() => hw?.close());

/** Runs `fn` with a caller's span; returns that span. */
async function underCallerSpan(fn: (caller: Span) => Promise<unknown>): Promise<Span> {
  const caller = tracer.startSpan('caller');
  await fn(caller).finally(() => caller.end());
  return caller;
}

const finished = () => exporter.getFinishedSpans();
const named = (name: string) => finished().filter((s) => s.name === name);
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

describe('library traces (a tracer from the caller)', () => {
  it("makes the dispatch's span a child of the caller's, and one child span per hook record", async () => {
    await open();
    exporter.reset();
    const done = completions(hw);
    let result!: Awaited<ReturnType<Executor['dispatch']>>;
    const caller = await underCallerSpan(async (caller) => {
      const ctx = trace.setSpan(context.active(), caller);
      result = await hw.dispatch('PreToolUse', input({ toolName: 'Bash', toolInput: { command: SECRET } }), {
        traceContext: ctx,
      });
    });
    const [dispatch] = named('dispatch BeforeTool');
    expect(dispatch!.spanContext().traceId).toBe(caller.spanContext().traceId);
    expect(parentOf(dispatch!)).toBe(caller.spanContext().spanId);
    expect(dispatch!.attributes).toMatchObject({
      [ATTR.event]: 'BeforeTool',
      [ATTR.tenant]: 'none',
      [ATTR.decision]: 'allow',
      [ATTR.decidedBy]: 'second',
      [ATTR.hooks]: 4,
    });
    const hooks = finished().filter((s) => parentOf(s) === dispatch!.spanContext().spanId);
    expect(hooks.map((s) => s.name)).toEqual(['hook first', 'hook second', 'hook cmd', 'hook later']);
    for (const [i, s] of hooks.entries()) {
      const r = result.hooks[i]!;
      expect(s.attributes).toMatchObject({
        [ATTR.hookId]: r.id,
        [ATTR.outcome]: r.outcome,
        [ATTR.type]: r.type,
      });
    }
    // The JS run of two hooks is one task: its hooks' spans follow one another inside the dispatch's.
    const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;
    expect(ms(hooks[0]!.endTime)).toBeLessThanOrEqual(ms(hooks[1]!.startTime));
    // The SDK anchors the dispatch span's own times to Date.now() (1 ms grain); the hook spans carry
    // performance.now() times, so the comparison with the dispatch's holds to that grain.
    expect(ms(hooks[0]!.startTime)).toBeGreaterThanOrEqual(ms(dispatch!.startTime) - 1);
    expect(ms(hooks[3]!.endTime)).toBeLessThanOrEqual(ms(dispatch!.endTime) + 1);
    await done;
    expect(JSON.stringify(finished().map((s) => s.attributes))).not.toContain(SECRET);
  });

  it('uses the active context when none is given, and links an async run to its dispatch', async () => {
    await open();
    exporter.reset();
    const done = completions(hw);
    let asyncId: string | undefined;
    const caller = await underCallerSpan(async () => {
      const r = await context.with(trace.setSpan(context.active(), tracer.startSpan('unused')), () =>
        hw.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: { command: 'ls' } })),
      );
      asyncId = r.hooks.find((h) => h.id === 'later')?.asyncId;
    });
    await done;
    const [dispatch] = named('dispatch BeforeTool');
    // No context manager is registered: the active context is the root one, a trace of its own.
    expect(dispatch!.spanContext().traceId).not.toBe(caller.spanContext().traceId);
    const [run] = named('async hook later').filter((s) => s.attributes[ATTR.asyncId] === asyncId);
    expect(run!.links.map((l) => l.context.spanId)).toEqual([dispatch!.spanContext().spanId]);
    expect(run!.spanContext().traceId).not.toBe(dispatch!.spanContext().traceId);
    expect(run!.attributes).toMatchObject({ [ATTR.hookId]: 'later', [ATTR.attempts]: 1 });
  });

  it('names tenants as the service does, and ends a failed dispatch with its code only', async () => {
    await open();
    exporter.reset();
    await hw.dispatch('AfterTool', input({ toolName: 'Bash' }), { tenant: 'acme' });
    await hw.dispatch('AfterTool', input({ toolName: 'Bash' }), { tenant: 'ghost' });
    await expect(hw.dispatch(`No${SECRET}`, input())).rejects.toThrow(/unknown event/);
    await expect(hw.dispatch('BeforeTool', input({ toolName: 7 }))).rejects.toThrow(/invalid/);
    const spans = finished().filter((s) => !s.name.startsWith('async'));
    expect(spans.map((s) => s.attributes[ATTR.tenant])).toEqual(['acme', 'acme', 'other', 'none', 'none']);
    const failed = spans.slice(3);
    expect(failed.map((s) => [s.status.code, s.attributes[ATTR.errorType]])).toEqual([
      [2, 'unknown_event'],
      [2, 'invalid_input'],
    ]);
    expect(JSON.stringify(failed.map((s) => [s.name, s.attributes, s.status, s.events]))).not.toContain(
      SECRET,
    );
  });

  it('gives a wasm hook a span like any hook: its type, isolation "wasm", outcome and times', async () => {
    // Denies by exit 2 with its reason on stderr (the command hook protocol).
    const module = await wat(`(module ${WASI_PRELUDE} (data (i32.const 300) "no")
      (func (export "_start") (call $write (i32.const 2) (i32.const 300) (i32.const 2)) (call $exit (i32.const 2))))`);
    const wasm = await createExecutor({
      config: wasmConfig({ BeforeTool: [{ name: 'wasm-guard', module }] }),
      tracer,
      onWarning: () => {},
    });
    try {
      exporter.reset();
      const r = await wasm.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: { command: 'ls' } }));
      expect(r.decision).toBe('deny');
      const [dispatch] = named('dispatch BeforeTool');
      const [hook] = named('hook wasm-guard');
      expect(parentOf(hook!)).toBe(dispatch!.spanContext().spanId);
      expect(hook!.attributes).toMatchObject({
        [ATTR.type]: 'wasm',
        [ATTR.isolation]: 'wasm',
        [ATTR.outcome]: 'deny',
      });
      // Inside the dispatch's span, to the SDK's grain: it anchors the times it takes itself (the
      // dispatch's) to Date.now(), whole milliseconds; the hook's come from performance.now().
      const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;
      expect(ms(hook!.startTime)).toBeGreaterThanOrEqual(ms(dispatch!.startTime) - 1);
      expect(ms(hook!.endTime)).toBeLessThanOrEqual(ms(dispatch!.endTime) + 1);
      expect(ms(hook!.endTime)).toBeGreaterThan(ms(hook!.startTime));
    } finally {
      await wasm.close();
    }
  });

  it('refuses a tracer or traceContext that is not one', async () => {
    await expect(createExecutor({ config, tracer: {} as never })).rejects.toThrow(/tracer: expected/);
    await open();
    await expect(hw.dispatch('BeforeTool', input(), { traceContext: 'x' as never })).rejects.toThrow(
      /traceContext: expected/,
    );
  });
});

describe('a tracer or context that throws', () => {
  it('loses the spans, never the dispatch', async () => {
    const broken = {
      startSpan() {
        throw new Error('SDK bug');
      },
      startActiveSpan() {
        throw new Error('SDK bug');
      },
    };
    const hostile = {
      getValue: () => {
        throw new Error('context bug');
      },
      setValue() {
        return this;
      },
      deleteValue() {
        return this;
      },
    };
    const plain = await createExecutor({ config, onWarning: () => {} });
    const withBroken = await createExecutor({ config, tracer: broken as never, onWarning: () => {} });
    try {
      const call = input({ toolName: 'Bash', toolInput: { command: 'ls' } });
      const expected = await plain.dispatch('BeforeTool', call);
      for (const [hw, options] of [
        [withBroken, {}],
        [await open(), { traceContext: hostile as never }],
      ] as const) {
        const r = await hw.dispatch('BeforeTool', call, options);
        expect([r.decision, r.decidedBy, r.hooks.map((h) => h.outcome)]).toEqual([
          expected.decision,
          expected.decidedBy,
          expected.hooks.map((h) => h.outcome),
        ]);
      }
    } finally {
      await Promise.all([plain.close(), withBroken.close()]);
    }
  });
});

describe('without a tracer', () => {
  const loads = (withTracer: boolean) => {
    const index = fileURLToPath(new URL('../../dist/src/index.js', import.meta.url));
    const loader = `data:text/javascript,export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write("LOAD " + r.url + "\\n"); return r; }`;
    const script = `
      const { createExecutor } = await import(${JSON.stringify(index)});
      const api = ${JSON.stringify(fileURLToPath(new URL('../../node_modules/@opentelemetry/api/build/src/index.js', import.meta.url)))};
      const tracer = ${withTracer} ? (await import(api)).trace.getTracer('t') : undefined;
      const hw = await createExecutor({ config: ${JSON.stringify({ hooks: { BeforeTool: [{ hooks: [js('j', '{}')] }] } })}, ...(tracer ? { tracer } : {}) });
      await hw.dispatch('BeforeTool', { toolName: 'Bash' });
      await hw.dispatch('AfterTool', { toolName: 'Bash' });
      await hw.close();`;
    const file = join(tempDir('hw-trace-load-'), 'run.mjs');
    writeFileSync(file, script);
    const r = spawnSync(process.execPath, ['--no-warnings', '--experimental-loader', loader, file], {
      encoding: 'utf8',
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    });
    expect(r.status, r.stderr).toBe(0);
    return r.stderr
      .split('\n')
      .filter((l) => l.startsWith('LOAD '))
      .join('\n');
  };

  it('never loads the OpenTelemetry API nor the span code (and does with one)', () => {
    const without = loads(false);
    expect(without).toContain('dispatch/dispatcher.js');
    expect(without).not.toContain('@opentelemetry');
    expect(without).not.toContain('audit/tracing.js');
    const withIt = loads(true);
    expect(withIt).toContain('audit/tracing.js');
  });
});
