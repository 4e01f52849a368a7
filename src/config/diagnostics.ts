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
}

/** Renders a received value for a message: JSON, truncated. */
export function renderValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Appends a key to a JSON path: `a.b`, or `a["odd key"]` when the key is not an identifier. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  const part = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
  if (base === '') return part.startsWith('"') ? `[${part}]` : part;
  return part.startsWith('"') ? `${base}[${part}]` : `${base}.${part}`;
}

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
}
