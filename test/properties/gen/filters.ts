// Matchers and `if` filters, each with the oracle's own answer: JavaScript's RegExp decides a regex
// (hookwarden runs its own linear engine), the documented name-list rule decides exact names, and a
// filter built unevaluable (lookaround, backreferences, invalid, huge bounds) must match (trust
// invariant 3). `undefined` from the oracle means "not decided here": any answer is right.
import fc from 'fast-check';

export type MatcherModel =
  | { readonly kind: 'all'; readonly text: string | undefined }
  | { readonly kind: 'names'; readonly text: string; readonly names: readonly string[] }
  | { readonly kind: 'regex'; readonly text: string }
  | { readonly kind: 'unevaluable'; readonly text: string };

/** Claude Code's legacy tool names (documented in docs/configuration.md): the oracle's own copy. */
const LEGACY: Readonly<Record<string, string>> = {
  Task: 'Agent',
  KillShell: 'TaskStop',
  KillBash: 'TaskStop',
  ListPeers: 'ListAgents',
  Brief: 'SendUserMessage',
  ListMcpResources: 'ListMcpResourcesTool',
  ReadMcpResource: 'ReadMcpResourceTool',
  ReadMcpResourceDir: 'ReadMcpResourceDirTool',
  ProposeGoal: 'SetGoal',
};

const currentName = (name: string) => (Object.hasOwn(LEGACY, name) ? LEGACY[name]! : name);

/** Every name a call of `name` answers to. */
function namesOf(name: string): string[] {
  const current = currentName(name);
  const legacy = Object.keys(LEGACY).filter((k) => LEGACY[k] === current);
  return [...new Set([name, current, ...legacy])];
}

/** Patterns JavaScript runs that the linear engine must run the same way. */
const REGEXES = [
  '^Bash$',
  'Ba.*',
  'mcp__.*__create',
  '(Read|Write)',
  'Edit$',
  '^(?:Grep|WebFetch)$',
  '[A-Z]ead',
  '.*',
  'B.sh',
  '^mcp__',
  'x?Bash',
  '\\w+Fetch',
  'Note\\w*',
  '^[^B]',
  'a{2}',
  '(?:sk){0,3}$',
  '\\bRead\\b',
  '[Tt]ask',
];

/** Valid JavaScript the engine cannot run as JavaScript does, and patterns that are not regexes. */
const UNEVALUABLE = [
  '^(?!Read$).*',
  '(?=Bash)Bash',
  '(?<=x)Bash',
  '(?<!x)Read',
  '(Bash)\\1?',
  '(?<n>W)\\k<n>?',
  'Foo(|Bar',
  'a{1,2000}',
  '\\01',
  '[',
] as const;

const NAME_LISTS = [
  'Bash',
  'Bash|Read',
  'Edit, Write',
  'mcp__github__create_issue',
  'Bash|',
  ' Read ',
  'Task',
  'Agent|Deploy',
  'NotebookEdit',
  'Edit',
] as const;

const splitNames = (text: string) =>
  text
    .split(/[|,]/)
    .map((n) => n.trim())
    .filter((n) => n !== '');

export const matcherModel: fc.Arbitrary<MatcherModel> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(undefined, '', '*').map((text) => ({ kind: 'all' as const, text })),
  },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(...NAME_LISTS)
      .map((text) => ({ kind: 'names' as const, text, names: splitNames(text) })),
  },
  { weight: 3, arbitrary: fc.constantFrom(...REGEXES).map((text) => ({ kind: 'regex' as const, text })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...UNEVALUABLE).map((text) => ({ kind: 'unevaluable' as const, text })),
  },
);

/** The oracle: whether the matcher accepts a call of `toolName` (a missing name is met). */
export function matcherAccepts(m: MatcherModel, toolName: string | undefined): boolean {
  if (m.kind === 'all' || m.kind === 'unevaluable' || toolName === undefined) return true;
  const names = namesOf(toolName);
  if (m.kind === 'names') return names.some((n) => m.names.includes(n));
  const re = new RegExp(m.text);
  return names.some((n) => re.test(n));
}

type PatternModel =
  | { readonly kind: 'none'; readonly text: string | undefined }
  | { readonly kind: 'glob'; readonly text: string }
  | { readonly kind: 'regex'; readonly source: string; readonly flags: '' | 'i' }
  | { readonly kind: 'unevaluable'; readonly source: string };

export interface IfModel {
  /** The tool part: a name, a name list, or a regex (no parentheses or spaces). */
  readonly tool: string;
  readonly pattern: PatternModel;
}

const IF_TOOLS = ['Bash', 'Deploy', 'mcp__.*', 'Read', 'WebFetch', 'Task', 'Bash|Deploy', '.*'] as const;
const GLOBS = ['rm*', '*rm*', 'git push*', '*', '?s', 'ls:*', '*SECRET*', 'safe', 'x*x'] as const;
const IF_REGEXES = ['rm', '^ls', 'SECRET$', 'push|rm', '\\d', '[a-z]{3}', 'x', 'afe\\b'] as const;

const patternModel: fc.Arbitrary<PatternModel> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.constantFrom(undefined, '', '*').map((text) => ({ kind: 'none' as const, text })),
  },
  { weight: 3, arbitrary: fc.constantFrom(...GLOBS).map((text) => ({ kind: 'glob' as const, text })) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom(...IF_REGEXES), fc.constantFrom('' as const, 'i' as const))
      .map(([source, flags]) => ({ kind: 'regex' as const, source, flags })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('(?!safe)', 'rm(?=\\s)', '(rm)\\1', '(?<=x)y', '(', 'a{1,5000}')
      .map((source) => ({ kind: 'unevaluable' as const, source })),
  },
);

export const ifModel: fc.Arbitrary<IfModel> = fc.record({
  tool: fc.constantFrom(...IF_TOOLS),
  pattern: patternModel,
});

/** The filter as written in a config: `Tool` or `Tool(pattern)`. */
export function ifText(f: IfModel): string {
  const p = f.pattern;
  if (p.kind === 'none') return p.text === undefined ? f.tool : `${f.tool}(${p.text})`;
  if (p.kind === 'glob') return `${f.tool}(${p.text})`;
  if (p.kind === 'regex') return `${f.tool}(/${p.source}/${p.flags})`;
  return `${f.tool}(/${p.source}/)`;
}

/** Whether the filter's pattern can be read at all. */
export const ifUnevaluable = (f: IfModel) => f.pattern.kind === 'unevaluable';

/** The tool input's values, depth-first in key order (the documented flattening). */
export function flatten(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || v === undefined) continue;
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'number' || typeof v === 'boolean') out.push(String(v));
    else if (typeof v === 'object') {
      const children = Array.isArray(v) ? v : Object.values(v);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }
  return out;
}

function globRegExp(glob: string): RegExp {
  const prefix = glob.endsWith(':*');
  const body = (prefix ? glob.slice(0, -2) : glob)
    .split('')
    .map((c) =>
      c === '*' ? '[\\s\\S]*' : c === '?' ? '[\\s\\S]' : c.replace(/[\\^$.|?*+()[\]{}/-]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${body}${prefix ? '' : '$'}`);
}

/** Tools whose `if` patterns follow Claude Code's permission rules (commands, paths). */
const RULE_TOOLS = new Set(['Bash', 'Read', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

/**
 * The oracle for an `if` filter: true or false where the documented rule decides it here,
 * undefined where Claude Code's permission-rule semantics (compound commands, paths) would.
 */
export function ifAccepts(f: IfModel, toolName: string | undefined, toolInput: unknown): boolean | undefined {
  const toolModel: MatcherModel = /^[a-zA-Z0-9_|, -]+$/.test(f.tool)
    ? { kind: 'names', text: f.tool, names: splitNames(f.tool) }
    : { kind: 'regex', text: f.tool };
  if (!matcherAccepts(toolModel, toolName)) return false;
  const p = f.pattern;
  // `Tool(*)` is `Tool`: it matches any call, one with no values included.
  if (p.kind === 'none' || p.kind === 'unevaluable' || (p.kind === 'glob' && p.text === '*')) return true;
  const rule = /^[A-Za-z0-9_]+$/.test(f.tool) && RULE_TOOLS.has(currentName(f.tool));
  const searched = (re: RegExp) => {
    const values = flatten(toolInput);
    return values.some((v) => re.test(v)) || (values.length > 1 && re.test(values.join(' ')));
  };
  if (p.kind === 'glob') return rule ? undefined : searched(globRegExp(p.text));
  const hit = searched(new RegExp(p.source, p.flags));
  // A path tool tries its path rule too: a regex hit is a match, a miss is not decided here.
  if (rule && currentName(f.tool) !== 'Bash') return hit ? true : undefined;
  return hit;
}
