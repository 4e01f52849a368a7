// What each hook says it saw, collected after each dispatch from where each hook type leaves it: a
// JS hook's `saw <key> <digest>` lines in its record's logs, a command hook's stdin files, the http
// server's request bodies, a trusted callback's notes. Never from hookwarden's own bookkeeping.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DispatchResult } from '../../src/contract/result.js';
import { type Behaviour, madeBy } from './gen/answers.js';
import { digestOf, seenValue } from './gen/digest.js';

/** Per hook key: the digests of what it saw, and of what it rewrote to, in order. */
export type Seen = Map<string, { seen: string[]; made: string[] }>;

function note(seen: Seen, key: string, what: 'seen' | 'made', digest: string): void {
  let s = seen.get(key);
  if (s === undefined) {
    s = { seen: [], made: [] };
    seen.set(key, s);
  }
  s[what].push(digest);
}

/** The `saw`/`made` lines of JS hooks in a result's records. */
export function fromLogs(result: DispatchResult, seen: Seen): void {
  for (const r of result.hooks) {
    for (const line of r.logs ?? []) {
      const m = /^(saw|made) (\S+) ([0-9a-f]{16})$/.exec(line);
      if (m !== null) note(seen, m[2]!, m[1] === 'saw' ? 'seen' : 'made', m[3]!);
      else if (line === 'saw evil') note(seen, 'evil', 'seen', '');
    }
  }
}

/** A raw input a hook received (stdin, a request body, a callback's argument), noted for `key`. */
export function noteInput(
  seen: Seen,
  key: string,
  behaviour: Behaviour | undefined,
  input: Record<string, unknown>,
  raw: string,
): void {
  const v = seenValue(input);
  note(seen, key, 'seen', digestOf(v));
  if (behaviour === undefined) return;
  const hit = behaviour.token === undefined || raw.includes(behaviour.token);
  const made = madeBy(hit ? behaviour.hit : behaviour.miss, input);
  if (made !== undefined) note(seen, key, 'made', digestOf(made));
}

/** The stdin files command hooks left in `dir/<key>/`, taken (deleted) in the order they were written. */
export function fromFiles(dir: string, behaviours: ReadonlyMap<string, Behaviour>, seen: Seen): void {
  let keys: string[];
  try {
    keys = readdirSync(dir);
  } catch {
    return;
  }
  for (const key of keys) {
    const files = readdirSync(join(dir, key)).sort();
    for (const f of files) {
      const path = join(dir, key, f);
      const raw = readFileSync(path, 'utf8');
      rmSync(path);
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        note(seen, key, 'seen', 'unreadable');
        continue;
      }
      noteInput(seen, key, behaviours.get(key), input, raw);
    }
  }
}
