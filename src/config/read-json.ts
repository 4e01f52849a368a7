// Reads JSON config files. Config files may be JSONC (comments and trailing commas), and every
// object key that appears twice is reported with both positions: JSON.parse silently keeps the last,
// while a reviewer reads the first (a duplicate in a policy file fails closed, see load.ts). Syntax
// errors are reported with line and column. `__proto__` is an ordinary key: it never sets a prototype.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { joinPath } from '../contract/messages.js';
import { jsonErrorOffset } from './json-error-offset.js';
import { recordFileRead } from './read-log.js';

/** A key written twice in one object. */
export interface DuplicateKey {
  /** JSON path of the key, e.g. `hooks.BeforeTool`. */
  readonly path: string;
  readonly first: { readonly line: number; readonly column: number };
  readonly second: { readonly line: number; readonly column: number };
}

export type ReadResult =
  | { ok: true; value: unknown; duplicates: readonly DuplicateKey[] }
  | { ok: false; kind: 'missing' | 'unreadable' | 'syntax'; message: string };

/** Line and column (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Strict JSON (hook inputs, pack files): JSON.parse, with the error's line and column. */
export function parseJsonText(text: string): ReadResult {
  try {
    const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return { ok: true, value, duplicates: [] };
  } catch (err) {
    const message = (err as Error).message;
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    const offset = jsonErrorOffset(body);
    const what = message
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/, ".*" is not valid JSON$/s, '');
    if (offset < 0) return { ok: false, kind: 'syntax', message: `invalid JSON: ${what}` };
    const { line, column } = lineColumn(body, offset);
    return { ok: false, kind: 'syntax', message: `invalid JSON at line ${line}, column ${column}: ${what}` };
  }
}

const PARSE_ERROR_TEXT: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected "," or the end of the object or array',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected text after the end of the JSON value',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in a string',
};

/**
 * A config file's text: JSON, or JSONC when `comments` (comments and trailing commas allowed).
 * Duplicate keys are listed; the value keeps the last one, as JSON.parse would.
 */
export function parseConfigText(text: string, options: { comments: boolean }): ReadResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const errors: ParseError[] = [];
  let tree: Node | undefined;
  try {
    tree = parseTree(body, errors, {
      allowTrailingComma: options.comments,
      disallowComments: !options.comments,
      allowEmptyContent: false,
    });
  } catch (err) {
    if (err instanceof RangeError)
      return { ok: false, kind: 'syntax', message: 'invalid JSON: nested too deeply to read' };
    throw err;
  }
  const first = errors[0];
  if (first !== undefined || tree === undefined) {
    const offset = first?.offset ?? 0;
    const { line, column } = lineColumn(body, offset);
    const what =
      first === undefined
        ? 'empty file'
        : (PARSE_ERROR_TEXT[printParseErrorCode(first.error)] ?? printParseErrorCode(first.error));
    const hint = !options.comments && /\/[/*]/.test(body) ? ' (comments are not accepted in this file)' : '';
    return {
      ok: false,
      kind: 'syntax',
      message: `invalid JSON at line ${line}, column ${column}: ${what}${hint}`,
    };
  }
  const duplicates: DuplicateKey[] = [];
  try {
    return { ok: true, value: toValue(tree, '', body, duplicates), duplicates };
  } catch (err) {
    if (err instanceof RangeError)
      return { ok: false, kind: 'syntax', message: 'invalid JSON: nested too deeply to read' };
    throw err;
  }
}

/** `file: key <path> written twice (line …)`: one message for a duplicate key. */
export function duplicateProblem(file: string, d: DuplicateKey): string {
  return `${file}: key ${d.path} written twice (line ${d.first.line}, column ${d.first.column} and line ${d.second.line}, column ${d.second.column})`;
}

function toValue(node: Node, path: string, text: string, duplicates: DuplicateKey[]): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const seenAt = new Map<string, number>();
      for (const prop of node.children ?? []) {
        const [keyNode, valueNode] = prop.children ?? [];
        if (keyNode === undefined || valueNode === undefined) continue;
        const key = String(keyNode.value);
        const at = joinPath(path, key);
        const earlier = seenAt.get(key);
        if (earlier !== undefined)
          duplicates.push({
            path: at,
            first: lineColumn(text, earlier),
            second: lineColumn(text, keyNode.offset),
          });
        seenAt.set(key, keyNode.offset);
        // defineProperty: a "__proto__" key is data, never the object's prototype.
        Object.defineProperty(out, key, {
          value: toValue(valueNode, at, text, duplicates),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map((child, i) => toValue(child, joinPath(path, i), text, duplicates));
    default:
      return node.value;
  }
}

export async function readJsonFile(path: string): Promise<ReadResult> {
  let text: string;
  try {
    const bytes = await readFile(path);
    recordFileRead(resolve(path), bytes);
    text = bytes.toString('utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    recordFileRead(resolve(path), { code });
    if (code === 'ENOENT') return { ok: false, kind: 'missing', message: 'file not found' };
    if (code === 'EISDIR')
      return {
        ok: false,
        kind: 'unreadable',
        message: 'is a directory, not a config file: name the file itself',
      };
    return {
      ok: false,
      kind: 'unreadable',
      message: `cannot read the file (${code ?? (err as Error).message})`,
    };
  }
  return parseConfigText(text, { comments: true });
}
