// Caps on the text a hook puts into its record and into the verdict: reasons, error messages,
// console lines and ignored field names. Dependency-free: the QuickJS worker applies them (and also
// bounds what it reads out of the guest), and the host applies them again to every answer of every
// hook type before it is folded, so no path of hook-controlled text escapes them.
import type { HookAnswer } from './fold.js';

export interface TextCaps {
  /** Each reason and each error message, in UTF-8 bytes. */
  readonly maxMessageBytes: number;
  /** console.* lines kept per invocation (one more line says how many were dropped). */
  readonly maxLogLines: number;
  /** Each console line, in UTF-8 bytes. */
  readonly maxLogLineBytes: number;
  /** All console lines of an invocation together, in UTF-8 bytes. */
  readonly maxLogBytes: number;
  /** Names listed in a record's `ignoredFields` (one more entry says how many were left out). */
  readonly maxIgnoredFields: number;
}

/** Each name in `ignoredFields`, in UTF-8 bytes. */
export const MAX_FIELD_NAME_BYTES = 128;

/** Appended to text that was cut. */
export const TRUNCATED = '…[truncated]';
const TRUNCATED_BYTES = new TextEncoder().encode(TRUNCATED).length;

const encoder = new TextEncoder();
let scratch = new Uint8Array(0);

/** The longest prefix of `text` within `maxBytes` of UTF-8 (never splits a character), and its size. */
function utf8Prefix(text: string, maxBytes: number): { text: string; bytes: number } {
  if (scratch.length < maxBytes) scratch = new Uint8Array(maxBytes);
  const { read, written } = encoder.encodeInto(text, scratch.subarray(0, maxBytes));
  return { text: read === text.length ? text : text.slice(0, read), bytes: written };
}

/** The UTF-8 size of `text` when it is at most `limit` bytes, else Infinity. Costs O(limit). */
export function utf8Size(text: string, limit: number): number {
  // Each UTF-16 unit takes 1 to 3 bytes.
  if (text.length > limit) return Number.POSITIVE_INFINITY;
  const head = utf8Prefix(text, limit + 1);
  return head.text.length === text.length && head.bytes <= limit ? head.bytes : Number.POSITIVE_INFINITY;
}

/**
 * `text` if it fits `maxBytes` of UTF-8; otherwise its head, marked `…[truncated]`, within
 * `maxBytes` in all. Costs O(maxBytes) however long `text` is.
 */
export function capText(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes || utf8Size(text, maxBytes) <= maxBytes) return text;
  return `${utf8Prefix(text, Math.max(0, maxBytes - TRUNCATED_BYTES)).text}${TRUNCATED}`;
}

/** Room for the "lines dropped" note beyond maxLogBytes: the note is ours, not the hook's. */
const NOTE_BYTES = 256;

/** Console lines within the caps: each line cut, lines beyond the count or byte budget dropped. */
export function capLogs(lines: readonly string[], caps: TextCaps): string[] {
  const out: string[] = [];
  let bytes = 0;
  let dropped = 0;
  for (const line of lines) {
    const text = capText(line, caps.maxLogLineBytes);
    const size = utf8Size(text, caps.maxLogLineBytes);
    if (out.length >= caps.maxLogLines || bytes + size > caps.maxLogBytes) {
      dropped++;
      continue;
    }
    bytes += size;
    out.push(text);
  }
  if (dropped > 0) out.push(droppedLogsNote(dropped, caps));
  return out;
}

/** The line that ends a capped console capture. */
export function droppedLogsNote(dropped: number, caps: TextCaps): string {
  return `… ${dropped} more console lines dropped (cap ${caps.maxLogLines} lines / ${caps.maxLogBytes} bytes, ${caps.maxLogLineBytes} bytes a line)`;
}

/** Field names within the caps: each name cut, names beyond the count summarised. */
export function capFieldNames(names: readonly string[], caps: TextCaps): string[] {
  const out = names.slice(0, caps.maxIgnoredFields).map((n) => capText(n, MAX_FIELD_NAME_BYTES));
  if (names.length > caps.maxIgnoredFields) out.push(`… ${names.length - caps.maxIgnoredFields} more`);
  return out;
}

const withinLogs = (logs: readonly string[] | undefined, caps: TextCaps): boolean => {
  if (logs === undefined) return true;
  // A capture with a trailing "dropped" note has one line more than the cap.
  if (logs.length > caps.maxLogLines + 1) return false;
  let bytes = 0;
  for (const line of logs) bytes += utf8Size(line, caps.maxLogLineBytes);
  return bytes <= caps.maxLogBytes + NOTE_BYTES;
};

const withinFields = (names: readonly string[] | undefined, caps: TextCaps): boolean =>
  names === undefined ||
  (names.length <= caps.maxIgnoredFields + 1 &&
    names.every((n) => utf8Size(n, MAX_FIELD_NAME_BYTES) <= MAX_FIELD_NAME_BYTES));

const withinWarnings = (lines: readonly string[], caps: TextCaps): boolean =>
  lines.length <= caps.maxIgnoredFields + 1 &&
  lines.every((l) => utf8Size(l, caps.maxMessageBytes) <= caps.maxMessageBytes);

/** Warnings within the caps: each cut like a reason, those beyond the count summarised. */
function capWarnings(lines: readonly string[], caps: TextCaps): string[] {
  const out = lines.slice(0, caps.maxIgnoredFields).map((l) => capText(l, caps.maxMessageBytes));
  if (lines.length > caps.maxIgnoredFields) out.push(`… ${lines.length - caps.maxIgnoredFields} more`);
  return out;
}

/**
 * The answer with its hook-controlled text within the caps: the error message, the answer's
 * `reason`, console lines and unknown field names. Other answer fields are the hook's output, bounded
 * by its output cap. Returns the same object when nothing needs cutting.
 */
export function capAnswer(answer: HookAnswer, caps: TextCaps): HookAnswer {
  if (answer.kind === 'not-run' || answer.kind === 'queued') return answer;
  let out = answer;
  if (!withinLogs(answer.logs, caps)) out = { ...out, logs: capLogs(answer.logs!, caps) };
  if (out.kind === 'failure') {
    const message = capText(out.error.message, caps.maxMessageBytes);
    if (message !== out.error.message) out = { ...out, error: { ...out.error, message } };
    return out;
  }
  if (!withinFields(out.unknownFields, caps))
    out = { ...out, unknownFields: capFieldNames(out.unknownFields!, caps) };
  if (out.warnings !== undefined && !withinWarnings(out.warnings, caps))
    out = { ...out, warnings: capWarnings(out.warnings, caps) };
  const reason = out.output?.reason;
  if (typeof reason === 'string') {
    const capped = capText(reason, caps.maxMessageBytes);
    // The output is made of null-prototype objects: keep it that way.
    if (capped !== reason)
      out = { ...out, output: Object.assign(Object.create(null), out.output, { reason: capped }) };
  }
  return out;
}
