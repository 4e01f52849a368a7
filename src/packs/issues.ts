// zod issues of a pack file → messages naming the file, the JSON path and the value received.
import type { z } from 'zod';
import { joinPath, renderValue } from '../config/diagnostics.js';

const isContainer = (v: unknown): v is Record<string | number, unknown> =>
  typeof v === 'object' && v !== null;

/** `hookpack.lock.json: files["a.sh"]: expected "sha256:<64 hex>", got "abc"`, one per issue. */
export function describeIssues(file: string, error: z.ZodError, value: unknown): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.reduce<string>((p, k) => joinPath(p, k as string | number), '');
    const received = issue.path.reduce<unknown>(
      (v, k) => (isContainer(v) ? v[k as string | number] : undefined),
      value,
    );
    return `${file}: ${path === '' ? '' : `${path}: `}${issue.message}, got ${renderValue(received)}`;
  });
}
