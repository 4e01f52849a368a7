// Config problems as data: every one names the file, the JSON path and the value received.

export interface Diagnostic {
  /** `error`: the value is wrong. `warning`: loaded, but not as written (or not supported). */
  readonly severity: 'error' | 'warning';
  /** The config file, or a label such as `<inline config>`. */
  readonly file: string;
  /** JSON path, e.g. `hooks.BeforeTool[0].hooks[1].timeoutMs` (empty for the whole file). */
  readonly path: string;
  readonly message: string;
  /** True when the entry at `path` was skipped (it will not run). */
  readonly skipped: boolean;
  /** The tenant the problem is about (an audit failure of its dispatch), where there is one. */
  readonly tenant?: string | undefined;
}

export { renderValue } from '../contract/messages.js';

export function formatDiagnostic(d: Diagnostic): string {
  const where = d.path === '' ? d.file : `${d.file}: ${d.path}`;
  return `${where}: ${d.message}${d.skipped ? ' (skipped)' : ''}`;
}

/** Collects diagnostics for one source file. */
export class DiagnosticSink {
  readonly items: Diagnostic[] = [];
  constructor(readonly file: string) {}

  error(path: string, message: string, skipped = true): void {
    this.items.push({ severity: 'error', file: this.file, path, message, skipped });
  }

  warn(path: string, message: string, skipped = false): void {
    this.items.push({ severity: 'warning', file: this.file, path, message, skipped });
  }

  /** A sink for the same file whose diagnostics are dropped (for values hookwarden does not judge). */
  quiet(): DiagnosticSink {
    const sink = new DiagnosticSink(this.file);
    sink.warn = () => {};
    sink.error = () => {};
    return sink;
  }
}
