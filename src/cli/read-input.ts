// The CLI's HookInput: from a file, from stdin (`-`), or empty; `event`, `sessionId`, `cwd` and
// `timestamp` are filled in when missing (the event argument always wins).
import { readFile } from 'node:fs/promises';
import { parseJsonText } from '../config/read-json.js';
import { UsageError } from './usage-error.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function readCliInput(
  source: string | undefined,
  event: string,
): Promise<Record<string, unknown>> {
  let value: unknown = {};
  if (source !== undefined) {
    let text: string;
    const label = source === '-' ? 'stdin' : source;
    try {
      text = source === '-' ? await readStdin() : await readFile(source, 'utf8');
    } catch (err) {
      throw new UsageError(
        `--input ${label}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
    }
    if (text.trim() !== '') {
      const parsed = parseJsonText(text);
      if (!parsed.ok) throw new UsageError(`--input ${label}: ${parsed.message}`);
      value = parsed.value;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(
      '--input: expected a JSON object (a HookInput), e.g. {"toolName":"Bash","toolInput":{"command":"ls"}}',
    );
  }
  const input = value as Record<string, unknown>;
  return {
    ...input,
    event,
    sessionId: input.sessionId ?? 'cli',
    cwd: input.cwd ?? process.cwd(),
    timestamp: input.timestamp ?? new Date().toISOString(),
  };
}
