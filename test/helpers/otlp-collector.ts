// A real OTLP/HTTP trace receiver on 127.0.0.1, as a collector runs it: POST /v1/traces with an
// ExportTraceServiceRequest in OTLP/JSON (hex trace and span ids, typed attribute values), answered
// 200 with an empty ExportTraceServiceResponse. Protobuf requests (http/protobuf) are kept raw.
// Tests wait on the spans it has received (an event per request), never on a clock.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll } from 'vitest';

type AttrValue = string | number | boolean | undefined;

/** One span as received, its attributes flattened. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly status: number;
  readonly attributes: Readonly<Record<string, AttrValue>>;
  readonly links: readonly { traceId: string; spanId: string }[];
  /** Attributes of the resource that sent it (service.name…). */
  readonly resource: Readonly<Record<string, AttrValue>>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
type OtlpAttrs = { key: string; value: OtlpValue }[] | undefined;

const flatten = (attrs: OtlpAttrs): Record<string, AttrValue> => {
  const out: Record<string, AttrValue> = {};
  for (const { key, value } of attrs ?? [])
    out[key] =
      value.stringValue ??
      (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
      value.doubleValue ??
      value.boolValue;
  return out;
};

/** The spans of one OTLP/JSON ExportTraceServiceRequest. */
function spansOf(body: unknown): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  const request = body as { resourceSpans?: Record<string, unknown>[] };
  for (const rs of request.resourceSpans ?? []) {
    const resource = flatten((rs.resource as { attributes?: OtlpAttrs } | undefined)?.attributes);
    for (const ss of (rs.scopeSpans as Record<string, unknown>[] | undefined) ?? []) {
      for (const s of (ss.spans as Record<string, unknown>[] | undefined) ?? []) {
        out.push({
          traceId: String(s.traceId),
          spanId: String(s.spanId),
          parentSpanId: String(s.parentSpanId ?? ''),
          name: String(s.name),
          kind: Number(s.kind),
          startNs: BigInt(String(s.startTimeUnixNano)),
          endNs: BigInt(String(s.endTimeUnixNano)),
          status: Number((s.status as { code?: number } | undefined)?.code ?? 0),
          attributes: flatten(s.attributes as OtlpAttrs),
          links: ((s.links as { traceId: string; spanId: string }[] | undefined) ?? []).map((l) => ({
            traceId: l.traceId,
            spanId: l.spanId,
          })),
          resource,
        });
      }
    }
  }
  return out;
}

const read = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const live = new Set<OtlpCollector>();
afterAll(async () => {
  await Promise.all([...live].map((c) => c.close()));
});

export class OtlpCollector {
  readonly spans: ReceivedSpan[] = [];
  /** Requests of another encoding (protobuf), raw, with their content type and path. */
  readonly raw: { path: string; contentType: string; body: Buffer }[] = [];
  readonly #server: Server;
  #waiters: { check: () => boolean; wake: () => void }[] = [];

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<OtlpCollector> {
    const server = createServer();
    const collector = new OtlpCollector(server);
    server.on('request', async (req, res) => {
      let body = await read(req);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const type = String(req.headers['content-type'] ?? '');
      if (req.method === 'POST' && req.url === '/v1/traces' && type.startsWith('application/json')) {
        collector.spans.push(...spansOf(JSON.parse(body.toString('utf8'))));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else {
        collector.raw.push({ path: req.url ?? '', contentType: type, body });
        res.writeHead(200, { 'content-type': type || 'application/x-protobuf' }).end();
      }
      collector.#wake();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    live.add(collector);
    return collector;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  #wake(): void {
    for (const w of [...this.#waiters]) if (w.check()) w.wake();
  }

  /** Resolves with the spans `match` accepts once there are at least `count` of them. */
  waitFor(match: (s: ReceivedSpan) => boolean, count = 1): Promise<ReceivedSpan[]> {
    const found = () => this.spans.filter(match);
    return new Promise((resolve) => {
      const waiter = {
        check: () => found().length >= count,
        wake: () => {
          this.#waiters = this.#waiters.filter((w) => w !== waiter);
          resolve(found());
        },
      };
      if (waiter.check()) resolve(found());
      else this.#waiters.push(waiter);
    });
  }

  /** Resolves once a raw (non-JSON) request has arrived. */
  waitForRaw(): Promise<{ path: string; contentType: string; body: Buffer }> {
    return new Promise((resolve) => {
      const waiter = {
        check: () => this.raw.length > 0,
        wake: () => {
          this.#waiters = this.#waiters.filter((w) => w !== waiter);
          resolve(this.raw[0]!);
        },
      };
      if (waiter.check()) resolve(this.raw[0]!);
      else this.#waiters.push(waiter);
    });
  }

  close(): Promise<void> {
    live.delete(this);
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
