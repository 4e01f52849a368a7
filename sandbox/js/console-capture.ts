// console.* of one invocation, captured into the hook's record within the task's caps (lines, bytes
// per line, bytes in all). Lines the module's top level printed when its image was built are kept
// with the image and head every invocation's capture, as if the module had run again.
import type { QuickJSHandle } from 'quickjs-emscripten-core';
import { capText, droppedLogsNote, type TextCaps, utf8Size } from '../../src/contract/text-caps.js';
import { type GuestBuiltins, readText } from './guest-text.js';

export class Logs {
  readonly lines: string[] = [];
  #bytes = 0;
  #dropped = 0;
  constructor(
    readonly caps: TextCaps,
    /** The capture of the module's top level, replayed first. */
    setup?: Logs,
  ) {
    if (setup === undefined) return;
    this.lines.push(...setup.lines);
    this.#bytes = setup.#bytes;
    this.#dropped = setup.#dropped;
  }
  /** Whether another line may be kept; a line that may not is counted as dropped. */
  accept(): boolean {
    if (this.lines.length < this.caps.maxLogLines && this.#bytes < this.caps.maxLogBytes) return true;
    this.#dropped++;
    return false;
  }
  add(text: string): void {
    const line = capText(text, this.caps.maxLogLineBytes);
    const size = utf8Size(line, this.caps.maxLogLineBytes);
    if (this.#bytes + size > this.caps.maxLogBytes) {
      this.#dropped++;
      return;
    }
    this.#bytes += size;
    this.lines.push(line);
  }
  final(): string[] {
    if (this.#dropped === 0) return this.lines;
    return [...this.lines, droppedLogsNote(this.#dropped, this.caps)];
  }
}

/**
 * One console line: the arguments joined by spaces (objects as JSON), reading no more of them than
 * fits `maxBytes`.
 */
export function consoleLine(
  g: GuestBuiltins,
  level: string,
  args: QuickJSHandle[],
  maxBytes: number,
): string {
  let line = level === 'log' ? '' : `[${level}] `;
  for (const [i, h] of args.entries()) {
    const room = maxBytes - line.length;
    if (room < 0) break;
    line += `${i > 0 ? ' ' : ''}${readText(g, h, room + 1, true) ?? `[${g.ctx.typeof(h)}]`}`;
  }
  return line;
}
