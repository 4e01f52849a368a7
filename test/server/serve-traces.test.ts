// Traces of `hookwarden serve`: a real serve process exports with the OTLP exporter to a receiver the
// test runs on 127.0.0.1 (OTEL_EXPORTER_OTLP_ENDPOINT), and each dispatch made with a W3C
// `traceparent` appears in the caller's trace: its span a child of the caller's, each hook record a
// child span of the dispatch's with the record's fields, an async run a span linked to its dispatch.
// No span carries a byte of the input or of what a hook answered; every tenant is named as the
// metrics name it.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ATTR } from '../../src/audit/tracing.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { OtlpCollector, type ReceivedSpan } from '../helpers/otlp-collector.js';
import { type LiveServer, post, startServe, writeAuthFile } from '../helpers/serve.js';

const dir = tempDir('hw-traces-');
const IN = `IN-${randomBytes(6).toString('hex')}`;
const OUT = `OUT-${randomBytes(6).toString('hex')}`;
const js = (name: string, body: string) => ({ type: 'js', name, code: `export default (i) => (${body})` });
const policy = writeConfig(dir, 'policy.json', {
  hooks: { BeforeTool: [{ hooks: [js('guard', `{ additionalContext: "${OUT}" + i.toolInput.command }`)] }] },
});
const config = writeConfig(dir, 'hooks.json', {
  hooks: { BeforeTool: [{ matcher: 'Bash', hooks: [js('top', `{ decision: "allow", reason: "${OUT}" }`)] }] },
  tenants: {
    acme: {
      hooks: {
        BeforeTool: [
          {
            matcher: 'Bash',
            hooks: [
              js('acme-echo', `{ decision: "allow", reason: "${OUT} " + i.toolInput.command }`),
              js('acme-broken', `{ get decision() { throw new Error("${OUT}") } }`),
              {
                name: 'acme-cmd',
                argv: ['/bin/sh', '-c', `cat >/dev/null; echo '{"reason":"${OUT}"}'`],
              },
              { name: 'acme-bg', async: true, argv: ['/bin/sh', '-c', 'cat >/dev/null'] },
            ],
          },
        ],
      },
    },
    beta: { hooks: { BeforeTool: [{ hooks: [js('beta-deny', `{ decision: "deny", reason: "${OUT}" }`)] }] } },
  },
});
const auth = writeAuthFile(dir, ['acme', 'beta', 'ghost', 'admin']);
const t = auth.tokens as Record<string, string>;
const bash = { toolName: 'Bash', toolInput: { command: `echo ${IN}` }, prompt: IN };

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const traceparent = (traceId = hex(16), spanId = hex(8), flags = '01') => ({
  traceId,
  spanId,
  header: `00-${traceId}-${spanId}-${flags}`,
});

let collector: OtlpCollector;
let server: LiveServer;
const otelEnv = (extra: Record<string, string> = {}) => ({
  ...process.env,
  OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_BSP_SCHEDULE_DELAY: '20',
  OTEL_SERVICE_NAME: 'hw-traces-test',
  ...extra,
});
beforeAll(async () => {
  collector = await OtlpCollector.start();
  server = await startServe(['-c', config, '-p', policy, '--listen', '127.0.0.1:0', '--auth', auth.path], {
    env: otelEnv(),
  });
});

/** Dispatches with a sampled traceparent; resolves with the answer and the dispatch's span. */
async function traced(token: string, event = 'BeforeTool', body: unknown = bash) {
  const parent = traceparent();
  const answer = await post(`${server.url}/v1/dispatch/${event}`, token, body, {
    traceparent: parent.header,
  });
  expect(answer.status).toBe(200);
  const [span] = await collector.waitFor(
    (s) => s.traceId === parent.traceId && s.name.startsWith('dispatch'),
  );
  return { parent, answer: answer.body, span: span! };
}

const childrenOf = (span: ReceivedSpan, count: number) =>
  collector.waitFor((s) => s.traceId === span.traceId && s.parentSpanId === span.spanId, count);

describe('serve traces (OTLP/HTTP to a collector on 127.0.0.1)', () => {
  it("puts the dispatch's span and each hook's span in the caller's trace, with the record's fields", async () => {
    const { parent, answer, span } = await traced(t.acme!);
    expect(span).toMatchObject({ parentSpanId: parent.spanId, kind: 2, name: 'dispatch BeforeTool' });
    expect(span.attributes).toMatchObject({
      [ATTR.event]: 'BeforeTool',
      [ATTR.tenant]: 'acme',
      [ATTR.decision]: answer.decision,
      [ATTR.hooks]: answer.hooks.length,
    });
    expect(span.resource['service.name']).toBe('hw-traces-test');
    const ran = answer.hooks.filter((h: { outcome: string }) => h.outcome !== 'not-run');
    expect(ran.map((h: { id: string }) => h.id)).toEqual([
      'guard',
      'acme-echo',
      'acme-broken',
      'acme-cmd',
      'acme-bg',
    ]);
    const hooks = await childrenOf(span, ran.length);
    expect(hooks).toHaveLength(ran.length);
    for (const h of ran) {
      const s = hooks.find((x) => x.attributes[ATTR.hookId] === h.id)!;
      expect(s.name).toBe(`hook ${h.id}`);
      expect(s.attributes).toMatchObject({
        [ATTR.type]: h.type,
        [ATTR.scope]: h.scope,
        [ATTR.outcome]: h.outcome,
        [ATTR.tenant]: 'acme',
        [ATTR.queuedMs]: expect.any(Number),
        [ATTR.runMs]: expect.any(Number),
      });
      expect(s.attributes[ATTR.errorCode]).toBe(h.error?.code);
      expect(s.attributes[ATTR.containment]).toBe(h.containment);
      // Within the dispatch's span.
      expect(s.startNs >= span.startNs && s.endNs <= span.endNs).toBe(true);
    }
    const by = (id: string) => hooks.find((x) => x.attributes[ATTR.hookId] === id)!;
    expect(by('acme-echo').attributes[ATTR.isolation]).toBe('quickjs');
    expect(by('acme-cmd').attributes[ATTR.isolation]).toBe('namespace');
    expect(by('acme-broken')).toMatchObject({ status: 2 });
    expect(by('acme-broken').attributes[ATTR.errorCode]).toEqual(expect.any(String));
    expect(by('acme-bg').attributes[ATTR.outcome]).toBe('queued');
    // The serial chain ran the hooks one after another: their spans say so.
    expect(by('guard').endNs <= by('acme-echo').startNs + 1_000_000n).toBe(true);
  });

  it("links an async hook's run to the dispatch that queued it", async () => {
    const { span, answer } = await traced(t.acme!);
    const asyncId = answer.hooks.find((h: { id: string }) => h.id === 'acme-bg').asyncId;
    const [run] = await collector.waitFor(
      (s) => s.attributes[ATTR.asyncId] === asyncId && s.name.startsWith('async'),
    );
    expect(run!).toMatchObject({ name: 'async hook acme-bg', kind: 5, parentSpanId: '' });
    expect(run!.traceId).not.toBe(span.traceId);
    expect(run!.links).toEqual([{ traceId: span.traceId, spanId: span.spanId }]);
    expect(run!.attributes).toMatchObject({
      [ATTR.tenant]: 'acme',
      [ATTR.outcome]: 'proceed',
      [ATTR.attempts]: 1,
    });
  });

  it('names the tenant as the metrics do: its id, none for the operator, other for an unnamed one', async () => {
    const beta = await traced(t.beta!, 'PreToolUse');
    expect(beta.span.attributes).toMatchObject({
      [ATTR.tenant]: 'beta',
      [ATTR.event]: 'BeforeTool',
      [ATTR.decision]: 'deny',
      [ATTR.decidedBy]: 'beta-deny',
    });
    expect((await traced(t.admin!)).span.attributes[ATTR.tenant]).toBe('none');
    const ghost = await traced(t.ghost!);
    expect(ghost.span.attributes[ATTR.tenant]).toBe('other');
    const [guard] = await childrenOf(ghost.span, 1);
    expect(guard!.attributes).toMatchObject({ [ATTR.hookId]: 'guard', [ATTR.tenant]: 'other' });
    const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${t.admin}` } });
    const text = await metrics.text();
    for (const tenant of ['beta', 'none', 'other'])
      expect(text).toContain(
        `hookwarden_dispatch_duration_seconds_count{event="BeforeTool",tenant="${tenant}"`,
      );
  });

  it('gives the fast path a span too, and a dispatch without a traceparent a trace of its own', async () => {
    const fast = await traced(t.acme!, 'BeforeTool', { toolName: 'Write', toolInput: { path: IN } });
    expect(fast.span.attributes).toMatchObject({ [ATTR.hooks]: 1, [ATTR.decision]: 'passthrough' });
    const none = await traced(t.beta!, 'AfterTool', { toolName: 'Bash' });
    expect(none.span.attributes).toMatchObject({ [ATTR.hooks]: 0, [ATTR.event]: 'AfterTool' });
    const before = collector.spans.length;
    const r = await post(`${server.url}/v1/dispatch/BeforeTool`, t.beta!, bash);
    expect(r.status).toBe(200);
    const [root] = await collector.waitFor(
      (s) =>
        collector.spans.indexOf(s) >= before &&
        s.name === 'dispatch BeforeTool' &&
        s.attributes[ATTR.tenant] === 'beta',
    );
    expect(root).toMatchObject({ parentSpanId: '', kind: 1 });
  });

  it("respects the caller's sampling decision: an unsampled traceparent makes no span", async () => {
    const unsampled = traceparent(undefined, undefined, '00');
    const r = await post(`${server.url}/v1/dispatch/BeforeTool`, t.beta!, bash, {
      traceparent: unsampled.header,
    });
    expect(r.status).toBe(200);
    // A sampled dispatch after it: once its span is in, the unsampled one would be too.
    await traced(t.beta!);
    expect(collector.spans.filter((s) => s.traceId === unsampled.traceId)).toEqual([]);
  });

  it("never puts the input, a hook's answer or a token in a span, and only documented attributes", async () => {
    await traced(t.acme!);
    await traced(t.beta!);
    const text = JSON.stringify(collector.spans, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    // The answers do carry them (the check can fail).
    expect(JSON.stringify((await traced(t.acme!)).answer)).toContain(OUT);
    expect(text).not.toContain(IN);
    expect(text).not.toContain(OUT);
    for (const token of Object.values(t)) expect(text).not.toContain(token.slice(3, 20));
    const known = new Set<string>(Object.values(ATTR));
    const keys = new Set(collector.spans.flatMap((s) => Object.keys(s.attributes)));
    expect([...keys].filter((k) => !known.has(k))).toEqual([]);
  });
});

describe('serve trace settings', () => {
  it('exports protobuf by default (OTEL_EXPORTER_OTLP_PROTOCOL unset)', async () => {
    const proto = await OtlpCollector.start();
    const s = await startServe(['-c', config, '--listen', '127.0.0.1:0', '--auth', auth.path], {
      env: { ...otelEnv(), OTEL_EXPORTER_OTLP_ENDPOINT: proto.url, OTEL_EXPORTER_OTLP_PROTOCOL: '' },
    });
    const parent = traceparent();
    await post(`${s.url}/v1/dispatch/BeforeTool`, t.beta!, bash, { traceparent: parent.header });
    const req = await proto.waitForRaw();
    expect(req).toMatchObject({ path: '/v1/traces', contentType: 'application/x-protobuf' });
    expect(req.body.includes(Buffer.from(parent.traceId, 'hex'))).toBe(true);
    await s.stop();
  });

  it.each([
    ['OTEL_TRACES_SAMPLER', 'always'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
    ['OTEL_TRACES_EXPORTER', 'console'],
    ['OTEL_TRACES_SAMPLER_ARG', '2'],
    ['OTEL_BSP_MAX_QUEUE_SIZE', '-1'],
  ])('refuses to start on %s=%s, naming the variable', async (name, value) => {
    const env = { ...otelEnv({ OTEL_TRACES_SAMPLER: 'traceidratio' }), [name]: value };
    const s = startServe(['-c', config, '--listen', '127.0.0.1:0', '--auth', auth.path], { env });
    await expect(s).rejects.toThrow(name);
  });
});
