// Execute stage for http hooks (Claude Code's `type: "http"`): the input a command hook registered
// for the event would read on stdin is POSTed as JSON to the hook's URL (admitted at load), with its
// headers' `$NAME` filled from the environment for its allowed variables only. A 2xx with an empty
// body is "no opinion"; a 2xx with a JSON object is read like a command's JSON stdout; anything else
// (another status, a redirect, a body that is not a JSON object, a failed connection, the deadline,
// a body over the cap) is the hook's failure, and its `onError` applies.
import { hookError } from '../contract/error-codes.js';
import { type HookAnswer, notRunAnswer } from '../contract/fold.js';
import { fillHeader, SENDABLE_HEADER_VALUE } from '../contract/header-template.js';
import { isObject } from '../contract/messages.js';
import { secretValueKind } from '../contract/secret-names.js';
import { capText } from '../contract/text-caps.js';
import type { HookInput } from '../contract/types.js';
import type { HookPool, HttpOutcome, LaneRunOptions } from '../pool/pool.js';
import type { HttpHookDefinition, HttpHookSpec } from '../registry/hook-definition.js';
import { type AnswerTiming, outputAnswer } from './hook-answer.js';
import { hookInputJson } from './hook-stdin.js';
import { refusedAnswer } from './refused.js';

/**
 * The hook's headers with their variables filled from `env`: an allowed variable's value (empty when
 * unset, or when it carries a credential the operator did not vouch for), anything else empty. A
 * value that cannot be sent as it is (a line break or NUL would split the header; another control
 * character or one beyond Latin-1 makes Node refuse it): the request is then not sent.
 */
export function fillHeaders(
  spec: HttpHookSpec,
  env: Readonly<Record<string, string | undefined>> = process.env,
): { ok: true; headers: Record<string, string> } | { ok: false; message: string } {
  const allowed = new Set(spec.envVars);
  const headers: Record<string, string> = Object.create(null);
  let bad: string | undefined;
  for (const [name, template] of Object.entries(spec.headers)) {
    headers[name] = fillHeader(template, (variable) => {
      if (!allowed.has(variable)) return '';
      const value = env[variable] ?? '';
      if (!spec.envVouched && secretValueKind(value) !== undefined) return '';
      if (/[\r\n\0]/.test(value))
        bad ??= `header "${name}": the value of $${variable} holds a line break or NUL`;
      else if (!SENDABLE_HEADER_VALUE.test(value))
        bad ??= `header "${name}": the value of $${variable} holds a control character or a character beyond Latin-1, which a header cannot carry`;
      return value;
    });
  }
  return bad === undefined
    ? { ok: true, headers }
    : { ok: false, message: `${bad}; the request was not sent` };
}

/** Applies the http protocol to how the exchange ended. */
export function interpretHttp(
  outcome: HttpOutcome,
  def: HttpHookDefinition,
  timing: AnswerTiming,
  toolInput: unknown,
): HookAnswer {
  const fail = (error: ReturnType<typeof hookError>): HookAnswer => ({ kind: 'failure', error, ...timing });
  const url = def.http.url;
  switch (outcome.kind) {
    case 'timeout':
      return fail(
        hookError('timeout', `no answer from ${url} within ${def.deadlineMs} ms`, {
          deadlineMs: def.deadlineMs,
        }),
      );
    case 'output_limit':
      return fail(
        hookError(
          'output_limit',
          `the response body is larger than ${outcome.limitBytes} bytes (maxOutputBytes)`,
          outcome.actualBytes === undefined
            ? { limitBytes: outcome.limitBytes }
            : { limitBytes: outcome.limitBytes, actualBytes: outcome.actualBytes },
        ),
      );
    case 'failed':
      return fail(
        hookError(
          'http_error',
          capText(`POST ${url} failed: ${outcome.message}`, 500),
          outcome.cause === undefined ? {} : { cause: outcome.cause },
        ),
      );
    case 'response':
      break;
  }
  const { status, location } = outcome;
  if (location !== undefined)
    return fail(
      hookError(
        'http_status',
        capText(
          `HTTP ${status}: redirected to ${location}; http hooks do not follow redirects, so point "url" at the final address`,
          1000,
        ),
        { status, location },
      ),
    );
  if (status < 200 || status > 299)
    return fail(hookError('http_status', `HTTP ${status} from ${url}`, { status }));
  const text = outcome.body.trim();
  if (text === '') return { kind: 'output', output: undefined, unknownFields: [], ...timing };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fail(
      hookError('invalid_output', `the response is not JSON: ${JSON.stringify(capText(text, 120))}`),
    );
  }
  if (!isObject(raw))
    return fail(
      hookError(
        'invalid_output',
        `expected a JSON object (or an empty body), got ${JSON.stringify(capText(text, 120))}`,
      ),
    );
  return outputAnswer(raw, def.event, timing, { dialect: def.dialect, toolInput });
}

export async function runHttpHook(
  def: HttpHookDefinition,
  input: HookInput,
  inputJson: string,
  pool: HookPool,
  options: LaneRunOptions,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<HookAnswer> {
  const filled = fillHeaders(def.http, env);
  if (!filled.ok) return notRunAnswer(hookError('http_error', filled.message));
  const lane = await pool.http.run(
    {
      url: def.http.url,
      headers: filled.headers,
      body: hookInputJson(def.http.claudeEvent, input, inputJson),
      deadlineMs: def.deadlineMs,
      maxBodyBytes: def.http.maxOutputBytes,
    },
    options,
  );
  if (!lane.ran) return refusedAnswer(lane);
  return interpretHttp(
    lane.value,
    def,
    { latencyMs: lane.value.durationMs, queuedMs: lane.queuedMs },
    input.toolInput,
  );
}
