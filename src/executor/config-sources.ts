// createExecutor's `config` and `policy` options (and setTenant's `config`): each entry a file path,
// a file reference `{ path, scope, optional }` or an inline config object, checked into the loader's
// SourceSpecs. A file reference refuses keys it does not know (a typo such as `scop` must not load a
// user file as project scope).

import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';
import type { SourceSpec } from '../config/read-source.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { renderValue } from '../contract/messages.js';
import type { Scope } from '../contract/types.js';

type FileRef = { path: string; scope?: 'project' | 'user'; optional?: boolean };
const FILE_REF_KEYS = optionKeys<FileRef>()(['path', 'scope', 'optional']);

const isFileRef = (v: object): v is FileRef =>
  typeof (v as { path?: unknown }).path === 'string' && !('hooks' in v) && !('policyHooks' in v);

export function toSources(value: unknown, key: 'config' | 'policy', root: string): SourceSpec[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((item, i): SourceSpec => {
    const at = Array.isArray(value) ? `${key}[${i}]` : key;
    const scope: Scope = key === 'policy' ? 'policy' : 'project';
    if (typeof item === 'string') {
      if (item === '') throw new HookwardenError('invalid_options', `${at}: expected a file path, got ""`);
      return { kind: 'file', path: item, scope };
    }
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw new HookwardenError(
        'invalid_options',
        `${at}: expected a file path or a config object, got ${renderValue(item)}`,
      );
    }
    if (isFileRef(item)) {
      refuseUnknownOptions(item, FILE_REF_KEYS, at);
      const s = item.scope ?? 'project';
      if (key === 'config' && s !== 'project' && s !== 'user') {
        throw new HookwardenError(
          'invalid_options',
          `${at}.scope: expected "project" or "user", got ${renderValue(s)}`,
        );
      }
      if (item.optional !== undefined && typeof item.optional !== 'boolean') {
        throw new HookwardenError(
          'invalid_options',
          `${at}.optional: expected true or false, got ${renderValue(item.optional)}`,
        );
      }
      return {
        kind: 'file',
        path: item.path,
        scope: key === 'policy' ? 'policy' : s,
        ...(item.optional === true ? { optional: true } : {}),
      };
    }
    return { kind: 'object', value: item, scope, label: `<${at}>`, dir: root };
  });
}
