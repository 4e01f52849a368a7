// The session-env rule (docs/security.md): what a hook may set for the rest of a session. Claude Code
// gives SessionStart, Setup, CwdChanged and FileChanged command hooks a CLAUDE_ENV_FILE and runs what
// they wrote as bash before every later Bash command; a hook may also answer `sessionEnv` (literal
// values) or `sessionEnvScript` (lines of the same bash). Nothing of it may change what later
// host-side commands run without the policy's consent. Dependency-free.
//
// Kept: assignment statements (env-script.ts) whose variables the rule admits, written on as the bash
// they were, so `export PATH="$PATH:/opt/x/bin"` still means "append to the PATH of the moment".
// Refused, each named with its line and why: commands (`source`, `eval`, …), substitutions, the
// loader's variables (refused-env.ts), and from anyone but a free writer (the operator's or the
// user's own unsandboxed hook) every variable the allow-list (session-env-names.ts) and the policy
// do not admit, and a PATH that adds a directory the policy did not admit.

import { type Assignment, parseEnvScript, type ValuePart } from './env-script.js';
import { ENV_NAME, refusedEnvReason, type SessionEnvWriter } from './refused-env.js';
import { secretValueKind } from './secret-names.js';
import { inertProblem } from './session-env-names.js';
import { shellQuote } from './shell-quote.js';

/** What the policy consents to (its `sessionEnv`), and the facts a PATH is judged against. */
export interface SessionEnvRule {
  readonly writer: SessionEnvWriter;
  /** Variables beyond the built-in list the policy lets this writer set (upper case). */
  readonly allow: ReadonlySet<string>;
  /** Directories a PATH may add (absolute, normalised): `sessionEnv.pathDirs`. Empty: none. */
  readonly pathDirs: readonly string[];
  /** The dispatching process's PATH directories (a PATH may keep or reorder them). */
  readonly hostPath: readonly string[];
  /** `~` and `$HOME`; undefined: unknown (a PATH built on it is refused). */
  readonly home: string | undefined;
  /** Whether a directory is inside the project (the repository's own files). */
  readonly inProject: (dir: string) => boolean;
}

/** What a hook wrote, before the rule. */
export interface SessionEnvAnswer {
  /** The text the hook wrote to its CLAUDE_ENV_FILE; `truncated`: only its head was read. */
  readonly file?: { readonly text: string; readonly truncated: boolean } | undefined;
  /** A `sessionEnvScript` answer. */
  readonly script?: string | undefined;
  /** A `sessionEnv` answer (literal values; a later source wins per name). */
  readonly env?: Readonly<Record<string, string>> | undefined;
}

export interface SessionEnvKept {
  /** The variables whose value is a literal, NAME → value (null-prototype); the last assignment wins. */
  readonly env: Record<string, string>;
  /** Every statement kept, in order, as bash (newline-separated); '' when none. */
  readonly script: string;
  /** `CLAUDE_ENV_FILE:<line>` / `sessionEnvScript:<line>` / `sessionEnv.<NAME>` for each refusal. */
  readonly ignored: string[];
  /** One sentence per refusal: where, what, and why. */
  readonly warnings: string[];
}

/** A PATH entry as a message may show it: short, one line, not shaped like a credential. */
const shown = (entry: string): string =>
  entry.length <= 200 && !/[\u0000-\u001f\u007f]/.test(entry) && secretValueKind(entry) === undefined
    ? `"${entry}"`
    : '(not shown)';

/** Stands for the session's PATH as it was (never in a value: NUL bytes are refused). */
const SESSION_PATH = '\u0000PATH\u0000';

/** Normalises an absolute path: no `.`/`..` segments, no doubled or trailing slash. */
export function normalizeDir(dir: string): string {
  const out: string[] = [];
  for (const seg of dir.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

/** Whether `dir` is `root` or below it (both normalised). */
export const isUnder = (dir: string, root: string): boolean =>
  root === '/' || dir === root || dir.startsWith(`${root}/`);

class Judge {
  readonly env: Record<string, string> = Object.create(null);
  readonly kept: string[] = [];
  readonly ignored: string[] = [];
  readonly warnings: string[] = [];
  /** Values known at this point of the script (undefined: not known here). */
  readonly #known = new Map<string, string | undefined>();

  constructor(readonly rule: SessionEnvRule) {
    this.#known.set('PATH', SESSION_PATH);
    if (rule.home !== undefined) this.#known.set('HOME', rule.home);
  }

  refuse(where: string, field: string, what: string, why: string): void {
    this.ignored.push(field);
    this.warnings.push(`${where} (${what}): ${why}: not applied`);
  }

  /** Why `name` may not get `value` (its evaluated value; undefined: not known here). */
  problem(name: string, value: string | undefined, assignment: Assignment): string | undefined {
    const hasValue = assignment.value !== undefined;
    const { writer, allow } = this.rule;
    if (!ENV_NAME.test(name)) return `"${name}" is not a variable name`;
    // The loader's variables: never, whatever a policy says.
    const loader = refusedEnvReason(name);
    if (loader !== undefined) return loader;
    const upper = name.toUpperCase();
    if (upper === 'PATH') {
      if (!hasValue || writer.free) return undefined;
      // zsh (a Claude Code user's shell may be zsh) leaves a ~ after a colon as it is: a relative entry.
      if (assignment.value!.some((p) => p.kind === 'home' && p.afterColon))
        return 'PATH has a ~ after a colon, which bash expands and zsh leaves as a relative directory: write $HOME';
      return this.#pathProblem(value);
    }
    // An allow-list: what is not known to be inert needs the policy's consent (a deny-list would
    // always miss the next proxy or tool-config variable).
    if (writer.free || allow.has(upper)) return undefined;
    // `export NAME` alone sets no value: only the name is judged.
    const inert = inertProblem(name, hasValue ? value : '');
    if (inert === undefined) return undefined;
    return `${inert}, and ${writer.who} may set only those unless a policy file admits it ("sessionEnv": {"allow": ["${name}"]})`;
  }

  /** Why this PATH may not be set by a hook below policy scope or a sandboxed one. */
  #pathProblem(value: string | undefined): string | undefined {
    const { pathDirs, hostPath, inProject } = this.rule;
    const consent =
      pathDirs.length === 0
        ? 'a new directory, and no policy file admits one ("sessionEnv": {"pathDirs": [...]})'
        : `not under the policy's sessionEnv.pathDirs (${pathDirs.join(', ')})`;
    if (value === undefined)
      return 'PATH would be built from variables hookwarden cannot resolve here (only $PATH, $HOME and ~ are): write the directories out';
    for (const entry of value.split(':')) {
      if (entry === SESSION_PATH) continue;
      if (entry.includes(SESSION_PATH)) return 'PATH joins $PATH to other text in one entry';
      if (entry === '') return 'an empty PATH entry means the working directory (the repository)';
      if (!entry.startsWith('/'))
        return `PATH entry ${shown(entry)} is relative: it would be looked up in the working directory (the repository)`;
      const dir = normalizeDir(entry);
      if (hostPath.includes(dir)) continue;
      if (inProject(dir))
        return `PATH entry ${shown(entry)} is inside the project: the repository would decide what later commands run`;
      if (!pathDirs.some((root) => isUnder(dir, root))) return `PATH entry ${shown(entry)} is ${consent}`;
    }
    return undefined;
  }

  /** The value of `parts` at this point of the script, or undefined when it is not known. */
  evaluate(parts: readonly ValuePart[]): string | undefined {
    let out = '';
    for (const p of parts) {
      if (p.kind === 'text') out += p.text;
      else if (p.kind === 'home') {
        if (this.rule.home === undefined) return undefined;
        out += this.rule.home;
      } else {
        const base = this.#known.has(p.name) ? this.#known.get(p.name) : undefined;
        if (base === undefined) return undefined;
        let v: string | undefined = base;
        if (p.op === ':-') v = base !== '' ? base : this.evaluate(p.word!);
        else if (p.op === ':+') v = base !== '' ? this.evaluate(p.word!) : '';
        else if (p.op === '+') v = this.evaluate(p.word!);
        if (v === undefined) return undefined;
        out += v;
      }
    }
    return out;
  }

  /** Judges one assignment statement: every variable admitted, or the whole statement refused. */
  statement(where: string, field: string, text: string, builtin: boolean, list: readonly Assignment[]): void {
    // `export`/`declare -x` evaluate every value before assigning any; bare assignments go left to right.
    const values = builtin ? list.map((a) => this.#valueOf(a)) : undefined;
    const staged = new Map<string, string | undefined>();
    const names = new Map<string, string | undefined>();
    for (const [i, a] of list.entries()) {
      const value = values !== undefined ? values[i] : this.#valueOf(a, staged);
      const why = this.problem(a.name, value, a);
      if (why !== undefined) {
        // One refused variable refuses the whole statement: bash would apply it whole.
        this.refuse(where, field, a.name, why);
        return;
      }
      if (a.value !== undefined) {
        staged.set(a.name, value);
        const literal = !a.append && a.value.every((p) => p.kind === 'text');
        names.set(
          a.name,
          literal ? a.value.map((p) => (p.kind === 'text' ? p.text : '')).join('') : undefined,
        );
      }
    }
    for (const [name, value] of staged) this.#known.set(name, value);
    for (const [name, literal] of names) {
      if (literal === undefined) delete this.env[name];
      else this.env[name] = literal;
    }
    this.kept.push(text);
  }

  #valueOf(a: Assignment, staged?: ReadonlyMap<string, string | undefined>): string | undefined {
    if (a.value === undefined) return this.#known.get(a.name);
    const saved = new Map<string, string | undefined>();
    if (staged !== undefined)
      for (const [k, v] of staged) {
        saved.set(k, this.#known.get(k));
        this.#known.set(k, v);
      }
    let v = this.evaluate(a.value);
    if (a.append) {
      const base = this.#known.get(a.name);
      v = base === undefined || v === undefined ? undefined : base + v;
    }
    for (const [k, old] of saved) {
      if (old === undefined) this.#known.delete(k);
      else this.#known.set(k, old);
    }
    return v;
  }

  script(source: string, text: string, truncated: boolean): void {
    const parsed = parseEnvScript(text, truncated);
    for (const st of parsed.statements) {
      const where = `${source} line ${st.line}`;
      const field = `${source}:${st.line}`;
      if (st.kind === 'refused') this.refuse(where, field, st.head, st.why);
      else this.statement(where, field, st.text, st.builtin, st.assignments);
    }
    if (parsed.lost !== undefined) {
      const { line, endLine, head, why } = parsed.lost;
      const span = endLine > line ? `${line}-${endLine}` : `${line}`;
      this.refuse(
        `${source} lines ${span}`,
        `${source}:${span}`,
        head,
        `line ${line} ${why}, and hookwarden cannot tell how bash reads the rest of the file`,
      );
    }
  }
}

/**
 * What of a hook's session env the rule keeps: the statements as bash, the literal values, and a
 * named refusal for everything else. Sources in order: the CLAUDE_ENV_FILE, a `sessionEnvScript`
 * answer, a `sessionEnv` answer (made `export NAME='value'` lines).
 */
export function judgeSessionEnv(answer: SessionEnvAnswer, rule: SessionEnvRule): SessionEnvKept {
  const j = new Judge(rule);
  if (answer.file !== undefined) j.script('CLAUDE_ENV_FILE', answer.file.text, answer.file.truncated);
  if (answer.script !== undefined) j.script('sessionEnvScript', answer.script, false);
  for (const [name, value] of Object.entries(answer.env ?? {})) {
    if (value.includes('\u0000')) {
      j.refuse('sessionEnv', `sessionEnv.${name}`, name, 'the value holds a NUL byte');
      continue;
    }
    j.statement('sessionEnv', `sessionEnv.${name}`, `export ${name}=${shellQuote(value)}`, true, [
      { name, append: false, value: [{ kind: 'text', text: value }] },
    ]);
  }
  return { env: j.env, script: j.kept.join('\n'), ignored: j.ignored, warnings: j.warnings };
}
