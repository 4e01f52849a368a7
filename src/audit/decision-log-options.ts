// The `audit.decisionLog` option (decision-log.ts): where the events go and how they are batched,
// retried and bounded, checked once into a frozen, fully-defaulted form. Header values are never
// repeated in a message (they hold the sink's credentials).
import { z } from 'zod';
import { refuseUnknownOptions } from '../config/option-keys.js';
import { issueMessages } from '../contract/messages.js';

export interface DecisionLogOptions {
  /** The sink: each batch is POSTed here (http or https; credentials go in `headers`, not the URL). */
  url: string;
  /** Headers of every upload, e.g. `{ authorization: 'Bearer …' }`. Never logged. */
  headers?: Readonly<Record<string, string>>;
  /** Labels of this instance in every event (OPA's `labels`); `id`, `app` and `version` are added. */
  labels?: Readonly<Record<string, string>>;
  /** Events per upload. Default 500. */
  maxBatchEvents?: number;
  /** Longest an event waits for its batch to fill before it is sent, ms. Default 1000. */
  flushIntervalMs?: number;
  /** Events held while the sink is slow or down; past it the oldest are dropped (counted). Default 10000. */
  maxBufferedEvents?: number;
  /** One upload's deadline, ms (an unanswered upload fails and is retried). Default 10000. */
  timeoutMs?: number;
  /** Wait after a failed upload, ms, doubled after each further failure up to maxRetryDelayMs. Default 500. */
  retryDelayMs?: number;
  /** Longest wait between retries, ms. Default 30000. */
  maxRetryDelayMs?: number;
  /** Gzip each batch (`Content-Encoding: gzip`), as OPA does. Default true. */
  gzip?: boolean;
}

export type DecisionLogSettings = Readonly<Required<DecisionLogOptions>>;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const ms = (max: number) => z.number().int().min(1).max(max);

const schema = z.strictObject({
  url: z
    .string()
    .max(4096)
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), {
      error: 'expected an http or https URL, e.g. https://logs.example.com/v1/decisions',
    })
    .refine((u) => !URL.canParse(u) || (new URL(u).username === '' && new URL(u).password === ''), {
      error: 'a URL with user:password@ would be logged; put the credentials in decisionLog.headers',
    }),
  headers: z
    .record(z.string().regex(HEADER_NAME, { error: 'expected an HTTP header name' }), z.string().max(8192))
    .optional(),
  labels: z.record(z.string().min(1).max(128), z.string().max(1024)).optional(),
  maxBatchEvents: z.number().int().min(1).max(100_000).optional(),
  flushIntervalMs: ms(3_600_000).optional(),
  maxBufferedEvents: z.number().int().min(1).max(10_000_000).optional(),
  timeoutMs: ms(600_000).optional(),
  retryDelayMs: ms(3_600_000).optional(),
  maxRetryDelayMs: ms(3_600_000).optional(),
  gzip: z.boolean().optional(),
});

const KEYS: ReadonlySet<string> = new Set(Object.keys(schema.shape));

/** The option checked, with its defaults; throws an Error whose message names each field. */
export function resolveDecisionLog(raw: unknown): DecisionLogSettings {
  refuseUnknownOptions(raw, KEYS, 'decisionLog');
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const shown = typeof raw === 'object' && raw !== null ? { ...raw, headers: '(not shown)' } : raw;
    const problems = issueMessages(parsed.error.issues, shown, 'decisionLog');
    throw new Error(problems.map((m) => `${m.path}: ${m.message}`).join('; '));
  }
  const d = parsed.data;
  return Object.freeze({
    url: d.url,
    headers: Object.freeze({ ...d.headers }),
    labels: Object.freeze({ ...d.labels }),
    maxBatchEvents: d.maxBatchEvents ?? 500,
    flushIntervalMs: d.flushIntervalMs ?? 1000,
    maxBufferedEvents: d.maxBufferedEvents ?? 10_000,
    timeoutMs: d.timeoutMs ?? 10_000,
    retryDelayMs: d.retryDelayMs ?? 500,
    maxRetryDelayMs: d.maxRetryDelayMs ?? 30_000,
    gzip: d.gzip ?? true,
  });
}

/** The sink as logs name it: scheme, host and path, never a query (it may hold a key). */
export function sinkName(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}
