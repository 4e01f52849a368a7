// Reads a JSON config file; syntax errors are reported with line and column.
import { readFile } from 'node:fs/promises';
import { jsonErrorOffset } from './json-error-offset.js';

export type ReadResult =
  | { ok: true; value: unknown }
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

export function parseJsonText(text: string): ReadResult {
  try {
    return { ok: true, value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
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

export async function readJsonFile(path: string): Promise<ReadResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, kind: 'missing', message: 'file not found' };
    return {
      ok: false,
      kind: 'unreadable',
      message: `cannot read the file (${code ?? (err as Error).message})`,
    };
  }
  return parseJsonText(text);
}
