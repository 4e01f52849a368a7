// The packs generated configurations pin: three small real packs (a guard, a rewriter, an observer)
// written and locked once per test file, whose JS hooks report what they saw like every generated
// hook. Pinned in a policy file they run at policy scope, elsewhere at user scope.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockPack } from '../../src/packs-entry.js';
import type { Behaviour } from './gen/answers.js';
import type { HookModel } from './gen/config.js';
import { jsHookSource } from './gen/render.js';

const hook = (key: string, behaviour: Behaviour): HookModel => ({
  key,
  kind: 'js',
  name: key,
  behaviour,
  once: false,
  async: false,
  onError: undefined,
  if: undefined,
  timeoutMs: undefined,
  isolation: undefined,
});

/** Each pack's one BeforeTool hook (matcher "*"), as a model the oracles read. */
export const PACK_HOOKS: Readonly<Record<string, HookModel>> = {
  guard: hook('kguard', {
    token: 'SECRET',
    hit: { kind: 'decide', decision: 'deny', shape: 'hookwarden' },
    miss: { kind: 'decide', decision: 'allow', shape: 'hookwarden' },
  }),
  rewriter: hook('krewriter', {
    token: 'rm',
    hit: { kind: 'rewrite', value: { command: 'ls safe' }, shape: 'mutated' },
    miss: { kind: 'none' },
  }),
  observer: hook('kobserver', { hit: { kind: 'none' }, miss: { kind: 'none' } }),
};

export const PACK_NAMES = Object.keys(PACK_HOOKS);

export interface PackLibrary {
  readonly pin: (name: string) => { readonly path: string; readonly digest: string };
}

/** Writes and locks the packs under `dir`. */
export async function writePackLibrary(dir: string): Promise<PackLibrary> {
  const pins = new Map<string, { path: string; digest: string }>();
  for (const [name, h] of Object.entries(PACK_HOOKS)) {
    const path = join(dir, name);
    mkdirSync(join(path, 'hooks'), { recursive: true });
    writeFileSync(join(path, 'hooks', `${h.key}.js`), jsHookSource(h.key, h.behaviour, 'PreToolUse'));
    const manifest = {
      name,
      version: '1.0.0',
      description: `generated ${name}`,
      hooks: { BeforeTool: [{ hooks: [{ name: h.key, type: 'js', source: `hooks/${h.key}.js` }] }] },
    };
    writeFileSync(join(path, 'hookpack.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const locked = await lockPack(path);
    pins.set(name, { path, digest: locked.digest });
  }
  return {
    pin: (name) => {
      const p = pins.get(name);
      if (p === undefined) throw new Error(`no pack ${name}`);
      return p;
    },
  };
}
