// `sessionEnv` in a policy file: what the operator consents to a hook setting for the session
// beyond the session-env rule (docs/security.md "What a hook may set for the session"). Only a
// policy file decides it (trust invariant 1): a project or user file's `sessionEnv` is ignored
// with a warning.
//
//   "sessionEnv": {
//     "allow": ["NODE_OPTIONS"],                       // names beyond the built-in inert list
//     "pathDirs": ["~/.nvm/versions", "/opt/tools"],   // directories a PATH may add
//     "narrowUserHooks": true                          // a user's own hooks by the list too
//   }
import { joinPath, renderValue } from '../contract/messages.js';
import { ENV_NAME, refusedEnvReason } from '../contract/refused-env.js';
import { normalizeDir } from '../contract/session-env.js';
import { isInertSessionName } from '../contract/session-env-names.js';
import type { Scope } from '../contract/types.js';
import type { DiagnosticSink } from './diagnostics.js';
import { didYouMean } from './suggest.js';

/** The resolved consent (plain data: compared on reload). */
export interface SessionEnvPolicy {
  /** Variables beyond the built-in inert list any hook may set, upper case. */
  readonly allow: readonly string[];
  /** Directories a PATH may add: absolute and normalised, or `~` / `~/…` (the host's home). */
  readonly pathDirs: readonly string[];
  /** A user's own unsandboxed hooks go by the allow-list too (default: they set what they like). */
  readonly narrowUserHooks: boolean;
}

const NO_SESSION_ENV_CONSENT: SessionEnvPolicy = Object.freeze({
  allow: Object.freeze([]),
  pathDirs: Object.freeze([]),
  narrowUserHooks: false,
});

const KEYS = new Set(['allow', 'pathDirs', 'narrowUserHooks']);

interface Source {
  readonly scope: Scope;
  readonly sink: DiagnosticSink;
  readonly value: Record<string, unknown> | undefined;
}

/** A `pathDirs` entry normalised, or what is wrong with it. */
function pathDir(v: string): { dir: string } | { problem: string } {
  if (v === '~' || v.startsWith('~/'))
    return { dir: v === '~' ? '~' : `~${normalizeDir(v.slice(1))}`.replace(/^~\/$/, '~') };
  if (!v.startsWith('/')) return { problem: 'expected an absolute directory or one under ~/' };
  return { dir: normalizeDir(v) };
}

/** Reads `sessionEnv` from the policy sources (lists joined); a lower scope's is ignored with a warning. */
export function collectSessionEnvPolicy(sources: readonly Source[]): SessionEnvPolicy {
  const allow = new Set<string>();
  const pathDirs = new Set<string>();
  let narrow = false;
  let seen = false;
  for (const src of sources) {
    const value = src.value?.sessionEnv;
    if (value === undefined) continue;
    if (src.scope !== 'policy') {
      src.sink.warn(
        'sessionEnv',
        `ignored: only a policy file can consent to what hooks set for the session, so a ${src.scope} file's "sessionEnv" has no effect`,
      );
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      src.sink.error(
        'sessionEnv',
        `expected an object with "allow" and/or "pathDirs", got ${renderValue(value)}`,
      );
      continue;
    }
    seen = true;
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      if (!KEYS.has(key))
        src.sink.error(
          joinPath('sessionEnv', key),
          `unknown key${didYouMean(key, KEYS)}; expected "allow", "pathDirs" or "narrowUserHooks"`,
        );
    }
    if (obj.narrowUserHooks !== undefined) {
      if (typeof obj.narrowUserHooks !== 'boolean')
        src.sink.error(
          'sessionEnv.narrowUserHooks',
          `expected true or false, got ${renderValue(obj.narrowUserHooks)}`,
        );
      else narrow ||= obj.narrowUserHooks;
    }
    for (const key of ['allow', 'pathDirs'] as const) {
      const list = obj[key];
      if (list === undefined) continue;
      const at = joinPath('sessionEnv', key);
      if (!Array.isArray(list)) {
        src.sink.error(at, `expected an array of strings, got ${renderValue(list)}`);
        continue;
      }
      for (const [i, v] of list.entries()) {
        const path = joinPath(at, i);
        if (typeof v !== 'string') src.sink.error(path, `expected a string, got ${renderValue(v)}`);
        else if (key === 'allow') allowEntry(v, path, src.sink, allow);
        else {
          const d = pathDir(v);
          if ('problem' in d) src.sink.error(path, `${d.problem}, got ${renderValue(v)}`);
          else {
            if (d.dir === '/' || d.dir === '~')
              src.sink.warn(
                path,
                `"${v}" admits every directory below it (the project's excepted) into PATH`,
              );
            pathDirs.add(d.dir);
          }
        }
      }
    }
  }
  if (!seen) return NO_SESSION_ENV_CONSENT;
  return Object.freeze({
    allow: Object.freeze([...allow]),
    pathDirs: Object.freeze([...pathDirs]),
    narrowUserHooks: narrow,
  });
}

function allowEntry(v: string, path: string, sink: DiagnosticSink, allow: Set<string>): void {
  if (!ENV_NAME.test(v)) {
    sink.error(path, `expected a variable name (letters, digits, _), got ${renderValue(v)}`);
    return;
  }
  const upper = v.toUpperCase();
  if (upper === 'PATH') {
    sink.error(
      path,
      'PATH is admitted by directory: list the directories a PATH may add in "sessionEnv.pathDirs"',
    );
    return;
  }
  const loader = refusedEnvReason(v);
  if (loader !== undefined) {
    sink.error(path, `${loader}: no policy can allow it for the session`);
    return;
  }
  if (isInertSessionName(v))
    sink.warn(
      path,
      `"${v}" is on the built-in list of inert variables already: this entry only lifts the check of its value`,
    );
  allow.add(upper);
}
