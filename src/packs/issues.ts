// zod issues of a pack file → messages naming the file, the JSON path and the value received.
import type { z } from 'zod';
import { issueMessages } from '../contract/messages.js';

/** `hookpack.lock.json: files["a.sh"]: expected "sha256:<64 hex>", got "abc"`, one per issue. */
export function describeIssues(file: string, error: z.ZodError, value: unknown): string[] {
  return issueMessages(error.issues, value).map(
    (m) => `${file}: ${m.path === '' ? '' : `${m.path}: `}${m.message}`,
  );
}
