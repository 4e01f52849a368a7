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
  /**
   * The tenant the problem is about: a problem inside `tenants.<id>` (its hooks, packs, limits) is
   * that tenant's alone, and fails that tenant closed, never the policy or another tenant
   * (docs/tenants-and-audit.md); an audit failure of its dispatch.
   */
  readonly tenant?: string | undefined;
}

export { renderValue } from '../contract/messages.js';

export function formatDiagnostic(d: Diagnostic): string {
  const where = d.path === '' ? d.file : `${d.file}: ${d.path}`;
  return `${where}: ${d.message}${d.skipped ? ' (skipped)' : ''}`;
}

/** Collects diagnostics for one source file. */
export class DiagnosticSink {
  /** `tenant`: every diagnostic is that tenant's (forTenant). `items`: shared with the sink it came from. */
  constructor(
    readonly file: string,
    readonly tenant?: string,
    readonly items: Diagnostic[] = [],
  ) {}

  error(path: string, message: string, skipped = true): void {
    this.items.push({ severity: 'error', file: this.file, path, message, skipped, ...this.#owner() });
  }

  warn(path: string, message: string, skipped = false): void {
    this.items.push({ severity: 'warning', file: this.file, path, message, skipped, ...this.#owner() });
  }

  #owner(): { tenant?: string } {
    return this.tenant === undefined ? {} : { tenant: this.tenant };
  }

  /** A sink for the same file and list whose diagnostics are `tenant`'s (its section of the file). */
  forTenant(tenant: string): DiagnosticSink {
    return new DiagnosticSink(this.file, tenant, this.items);
  }

  /** A sink for the same file whose diagnostics are dropped (for values hookwarden does not judge). */
  quiet(): DiagnosticSink {
    const sink = new DiagnosticSink(this.file, this.tenant);
    sink.warn = () => {};
    sink.error = () => {};
    return sink;
  }
}
