// Paths in the command hooks of a pack. A pack's command may run one of the pack's own files or a
// system binary; nothing may reach outside the pack directory. At load:
// - the program (argv[0], Claude Code's `command` with `args`, the first word of a shell `command`)
//   given as a relative path with a slash (`./check.sh`, `bin/check`) must be a file of the pack and
//   is replaced by its absolute path: command hooks run with cwd = the sandbox root, not the pack;
// - other argv words starting with `./` or `../` (or `--opt=./x`) are pack paths and made absolute;
// - in a shell command, later words may not start with `./` or `../` (they would resolve against the
//   sandbox root): write "$HOOK_PACK_DIR/x"; `$HOOK_PACK_DIR/…` and `$CLAUDE_PLUGIN_ROOT/…` words may
//   not climb out with `..`;
// - absolute paths into the pack's parent directory (a sibling pack, the operator's config) are refused.
// The check is lexical: it keeps the files a pack refers to inside what its digest covers.
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { DiagnosticSink } from '../config/diagnostics.js';
import { isObject, joinPath, renderValue } from '../contract/messages.js';

export interface PackPathContext {
  /** Real absolute path of the pack directory. */
  readonly root: string;
  /** The pack's files (relative, `/`-separated). */
  readonly files: ReadonlyMap<string, string>;
  readonly sink: DiagnosticSink;
}

const within = (root: string, abs: string) => {
  const rel = relative(root, abs);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
};

const startsRelative = (w: string) => w === '.' || w === '..' || w.startsWith('./') || w.startsWith('../');
const PACK_VAR = /^\$(?:\{(?:HOOK_PACK_DIR|CLAUDE_PLUGIN_ROOT)\}|HOOK_PACK_DIR\b|CLAUDE_PLUGIN_ROOT\b)(.*)$/;
const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

type Checked = { ok: true; value: string } | { ok: false; message: string };

function absoluteAllowed(abs: string, ctx: PackPathContext): Checked {
  const parent = dirname(ctx.root);
  if (!within(ctx.root, abs) && (abs === parent || within(parent, abs)))
    return {
      ok: false,
      message: `absolute path into the pack's parent directory (${parent}) reaches outside the pack`,
    };
  return { ok: true, value: abs };
}

function packPath(word: string, ctx: PackPathContext, mustExist: boolean): Checked {
  const abs = resolve(ctx.root, word);
  if (!within(ctx.root, abs) || abs === ctx.root)
    return { ok: false, message: `path leaves the pack directory (a pack may only refer to its own files)` };
  if (mustExist) {
    const rel = relative(ctx.root, abs).split(sep).join('/');
    if (!ctx.files.has(rel)) return { ok: false, message: `not a file of the pack (${rel})` };
  }
  return { ok: true, value: abs };
}

function program(word: string, ctx: PackPathContext): Checked {
  if (isAbsolute(word)) return absoluteAllowed(word, ctx);
  return word.includes('/') ? packPath(word, ctx, true) : { ok: true, value: word };
}

function argument(word: string, ctx: PackPathContext): Checked {
  if (isAbsolute(word)) return absoluteAllowed(word, ctx);
  if (startsRelative(word)) return packPath(word, ctx, false);
  const eq = word.indexOf('=');
  if (eq > 0) {
    const value = argument(word.slice(eq + 1), ctx);
    return value.ok ? { ok: true, value: `${word.slice(0, eq + 1)}${value.value}` } : value;
  }
  return { ok: true, value: word };
}

function shellWord(word: string, ctx: PackPathContext): Checked {
  const bare = word.replaceAll(/["']/g, '');
  const packVar = PACK_VAR.exec(bare);
  if (packVar !== null) {
    const rest = packVar[1] ?? '';
    return rest === '' || rest.startsWith('/') ? packPath(`.${rest}`, ctx, false) : { ok: true, value: word };
  }
  if (isAbsolute(bare)) return absoluteAllowed(bare, ctx);
  if (startsRelative(bare))
    return {
      ok: false,
      message:
        'in a shell command only the first word may be a ./ path (it runs from the sandbox root): write "$HOOK_PACK_DIR/…"',
    };
  const eq = bare.indexOf('=');
  return eq > 0 ? shellWord(bare.slice(eq + 1), ctx) : { ok: true, value: word };
}

const PROGRAM_WORD = /^(\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*)("[^"]*"|'[^']*'|[^\s;&|()<>`]+)/;

function shellCommand(command: string, ctx: PackPathContext): Checked {
  let out = command;
  let rest = command;
  const m = PROGRAM_WORD.exec(command);
  if (m !== null) {
    const word = m[2]!.replaceAll(/^["']|["']$/g, '');
    if (!PACK_VAR.test(word)) {
      const p = program(word, ctx);
      if (!p.ok) return p;
      if (p.value !== word) out = `${m[1]}${shellQuote(p.value)}${command.slice(m[0].length)}`;
      rest = command.slice(m[0].length);
    }
  }
  for (const w of rest.split(/[\s;&|()<>`]+/)) {
    if (w === '') continue;
    const c = shellWord(w, ctx);
    if (!c.ok) return { ok: false, message: `${c.message}, got ${renderValue(w)}` };
  }
  return { ok: true, value: out };
}

/** One hook spec with its paths resolved, or undefined after reporting why it is refused. */
function resolveSpec(spec: Record<string, unknown>, path: string, ctx: PackPathContext): unknown {
  const out: Record<string, unknown> = { ...spec };
  const fail = (at: string, message: string, got: unknown) => {
    ctx.sink.error(at, `${message}, got ${renderValue(got)}`);
    return undefined;
  };
  const words = (key: 'argv' | 'args', list: unknown, first: boolean): unknown[] | undefined => {
    if (!Array.isArray(list)) return list as unknown[];
    const resolved: unknown[] = [];
    for (const [i, w] of list.entries()) {
      if (typeof w !== 'string') return list;
      const c = first && i === 0 ? program(w, ctx) : argument(w, ctx);
      if (!c.ok) return fail(joinPath(joinPath(path, key), i), c.message, w);
      resolved.push(c.value);
    }
    return resolved;
  };
  if (spec.argv !== undefined) {
    const argv = words('argv', spec.argv, true);
    if (argv === undefined) return undefined;
    out.argv = argv;
  }
  if (typeof spec.command === 'string') {
    if (spec.args !== undefined) {
      const c = program(spec.command, ctx);
      if (!c.ok) return fail(joinPath(path, 'command'), c.message, spec.command);
      out.command = c.value;
      const args = words('args', spec.args, false);
      if (args === undefined) return undefined;
      out.args = args;
    } else {
      const c = shellCommand(spec.command, ctx);
      if (!c.ok) return fail(joinPath(path, 'command'), c.message, spec.command);
      out.command = c.value;
    }
  }
  return out;
}

/**
 * A copy of a pack's `hooks` map with command paths resolved. A spec with a path problem is reported
 * (as an error, which refuses the pack) and left out.
 */
export function resolvePackCommands(hooks: unknown, ctx: PackPathContext): unknown {
  if (!isObject(hooks)) return hooks;
  const out: Record<string, unknown> = Object.create(null);
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) {
      out[event] = entries;
      continue;
    }
    const base = joinPath('hooks', event);
    out[event] = entries.flatMap((entry, i) => {
      if (!isObject(entry)) return [entry];
      const at = joinPath(base, i);
      if (!Array.isArray(entry.hooks)) {
        const r = resolveSpec(entry, at, ctx);
        return r === undefined ? [] : [r];
      }
      const specs = entry.hooks.flatMap((spec, j) => {
        if (!isObject(spec)) return [spec];
        const r = resolveSpec(spec, joinPath(joinPath(at, 'hooks'), j), ctx);
        return r === undefined ? [] : [r];
      });
      return [{ ...entry, hooks: specs }];
    });
  }
  return out;
}
