// A hook's digest in a bench result: what the hook does, not where it was loaded from, so the same
// hook digests the same on every machine and `bench compare` can say which hook changed. For a
// command hook that includes the scripts it runs: every word of its program that names a file
// under the config's root (the folder of the config file, or the plugin root) or under the sandbox
// root is hashed by content, and both roots are written as placeholders. An edited script is a
// changed hook, though its command line is the same.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { basename, isAbsolute, resolve, sep } from 'node:path';
import { shellWords } from '../contract/shell-words.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import { canonicalJson } from '../registry/hook-id.js';

export const sha256 = (text: string | Buffer) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** Largest script hashed by content; a larger one is identified by its size only. */
const MAX_SCRIPT_BYTES = 8 << 20;
/** Files that are data, not programs: never hashed (a digest of a secret is no business of a result). */
const SECRET_FILE =
  /(^|\.)env(\.|$)|\.(pem|key|p12|pfx|crt|der)$|id_(rsa|dsa|ecdsa|ed25519)|secret|token|credential|passw/i;
/** File names that are programs even without the executable bit (run by an interpreter). */
const SCRIPT_NAME = /\.(sh|bash|zsh|ksh|fish|py|rb|pl|php|lua|js|mjs|cjs|ts|mts|cts|ps1|r|R|jl|tcl|awk|sed)$/;

interface Roots {
  /** Placeholder → real directory, most specific first. */
  readonly dirs: readonly (readonly [string, string])[];
}

function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

/** The two roots as placeholder → directory, the more specific (longer) first; `/` is no root. */
function rootList(config: string, sandbox: string): [string, string][] {
  const dirs: [string, string][] = [
    ['<config>', config],
    ['<root>', sandbox],
  ];
  return dirs.filter(([, d]) => d.length > 1).sort((a, b) => b[1].length - a[1].length);
}

function rootsOf(h: HookDefinition & { type: 'command' }, sandboxRoot: string): Roots {
  return { dirs: rootList(realDir(h.command.pluginRoot), realDir(sandboxRoot)) };
}

const within = (path: string, dir: string) =>
  path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** The path with a root written as its placeholder (`<config>/hooks/guard.sh`), or undefined. */
function placeholder(path: string, roots: Roots): string | undefined {
  for (const [name, dir] of roots.dirs) if (within(path, dir)) return name + path.slice(dir.length);
  return undefined;
}

/** Replaces every root directory in a text, as written and as resolved, by its placeholder. */
function neutral(text: string, roots: Roots, written: readonly (readonly [string, string])[]): string {
  let out = text;
  for (const [name, dir] of [...written, ...roots.dirs]) out = out.split(dir).join(name);
  return out;
}

/** The words of the program that may name a file, with the variables Claude Code and hookwarden set. */
function programWords(h: HookDefinition & { type: 'command' }, sandboxRoot: string): string[] {
  const p = h.command.program;
  const words = p.kind === 'argv' ? [...p.argv] : shellWords(p.command, { operators: true });
  return words.map((w) =>
    w
      .replace(/\$\{?(CLAUDE_PROJECT_DIR|HOOK_PROJECT_DIR)\}?/g, sandboxRoot)
      .replace(/\$\{?CLAUDE_PLUGIN_ROOT\}?/g, h.command.pluginRoot),
  );
}

/** The content digest of a regular file, without following it out of `roots`; undefined when not one. */
function scriptDigest(path: string, roots: Roots): { path: string; content: string } | undefined {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return undefined;
  }
  const name = placeholder(real, roots);
  if (name === undefined || SECRET_FILE.test(basename(real))) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile() || !(SCRIPT_NAME.test(real) || (st.mode & 0o111) !== 0)) return undefined;
    if (st.size > MAX_SCRIPT_BYTES) return { path: name, content: `size:${st.size}` };
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) break;
      off += n;
    }
    return { path: name, content: sha256(buf.subarray(0, off)) };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** What a command hook runs, with its scripts by content and its paths without the machine's roots. */
function commandIdentity(h: HookDefinition & { type: 'command' }, sandboxRoot: string): unknown {
  const roots = rootsOf(h, sandboxRoot);
  // The directories as written too (a config path given through a symlink keeps its own spelling).
  const written = rootList(resolve(h.command.pluginRoot), resolve(sandboxRoot));
  const scripts = new Map<string, string>();
  for (const word of programWords(h, sandboxRoot)) {
    if (word === '' || word.startsWith('-') || !(word.includes('/') || SCRIPT_NAME.test(word))) continue;
    const s = scriptDigest(isAbsolute(word) ? word : resolve(sandboxRoot, word), roots);
    if (s !== undefined) scripts.set(s.path, s.content);
  }
  const c = h.command;
  const program =
    c.program.kind === 'argv'
      ? { kind: 'argv', argv: c.program.argv.map((w) => neutral(w, roots, written)) }
      : { kind: 'shell', command: neutral(c.program.command, roots, written) };
  return {
    program,
    scripts: [...scripts].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    env: c.env,
    inheritEnv: c.inheritEnv,
    isolation: c.isolation,
    writable: c.writable,
    runAs: c.runAs ?? null,
    rlimits: c.rlimits,
    maxOutputBytes: c.maxOutputBytes,
  };
}

/** What a hook does, without where it was loaded from. */
function hookIdentity(h: HookDefinition, sandboxRoot: string): unknown {
  const base = { type: h.type, onError: h.onError, deadlineMs: h.deadlineMs, once: h.once };
  if (h.type === 'js')
    return { ...base, code: h.js.code, memoryBytes: h.js.memoryBytes, maxOutputBytes: h.js.maxOutputBytes };
  if (h.type === 'wasm') {
    const { digest, memoryBytes, maxOutputBytes, fuel } = h.wasm;
    return { ...base, module: digest, memoryBytes, maxOutputBytes, fuel: fuel ?? null };
  }
  if (h.type === 'http') {
    const { url, headers, envVars, maxOutputBytes } = h.http;
    return { ...base, url, headers, envVars, maxOutputBytes };
  }
  if (h.type === 'prompt' || h.type === 'agent') {
    const { prompt, model, continueOnBlock } = h.evaluator;
    return { ...base, prompt, model: model ?? null, continueOnBlock: continueOnBlock ?? null };
  }
  return { ...base, ...(commandIdentity(h, sandboxRoot) as object) };
}

/** `sha256:` of what the hook does (and, for a command hook, of the scripts under its roots). */
export function hookDigest(h: HookDefinition, sandboxRoot: string): string {
  return sha256(canonicalJson(hookIdentity(h, sandboxRoot)));
}
