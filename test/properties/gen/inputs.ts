// Hook inputs: tool names and tool inputs that are deep, large, in odd Unicode, with `__proto__`,
// `constructor` and numeric keys; prompts and requests for the other events.
import fc from 'fast-check';

/** Tool names: Claude Code's, MCP ones, one legacy name (`Task` is `Agent`), a custom one. */
const TOOL_NAMES = [
  'Bash',
  'Read',
  'Edit',
  'Write',
  'Grep',
  'WebFetch',
  'NotebookEdit',
  'mcp__github__create_issue',
  'mcp__fs__read_file',
  'Task',
  'Agent',
  'Deploy',
] as const;

/** Words that guards look for and rewrites write, so that the two meet. */
export const TOKENS = ['rm', 'ls', 'git', 'push', 'SECRET', 'safe', 'x'] as const;

/** Strings that stress text handling: surrogates alone, NUL, bidi controls, BOM, line separators. */
const ODD = [
  '\ud800',
  '\udfff',
  'a\u0000b',
  '\u202eevil',
  '\ufeff',
  '\u2028\u2029',
  '😀🏳️‍🌈',
  'e\u0301',
  '\\"\n\t',
  '$(id)`id`',
  '*?[',
  '',
];

export const oddString = fc.constantFrom(...ODD);

/** A short string: a token, tokens joined, an odd one, or random text in several units. */
export const shortString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TOKENS) },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.constantFrom(...TOKENS, ' ', '-rf', '/', '&&', ';'), { maxLength: 6 })
      .map((p) => p.join(' ')),
  },
  { weight: 2, arbitrary: oddString },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8, unit: 'binary' }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8, unit: 'grapheme' }) },
);

/** Keys, hostile ones included; `__proto__` must stay an ordinary key all the way. */
export const objectKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('command', 'file_path', 'content', 'url', 'pattern', 'args') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'),
  },
  { weight: 1, arbitrary: fc.constantFrom('0', '7', '', ' ', 'a.b', 'ключ', '\ud83d') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);

/** An own data property, whatever the key (`obj[k] = v` would set the prototype for `__proto__`). */
export function objectOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries)
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: shortString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** A JSON value at most `depth` levels deep. */
export function jsonValue(depth: number): fc.Arbitrary<unknown> {
  if (depth <= 0) return scalar;
  return fc.oneof(
    { weight: 4, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(jsonValue(depth - 1), { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.array(fc.tuple(objectKey, jsonValue(depth - 1)), { maxLength: 3 }).map(objectOf),
    },
  );
}

/** A value nested `depth` levels (objects and arrays alternating), a token at the bottom. */
const nested = (depth: number, leaf: unknown): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? objectOf([['k', v]]) : [v];
  return v;
};

export interface ToolInputOptions {
  /** Allow values nested this deep (the input itself adds two levels). Default 4. */
  readonly maxDepth?: number;
  /** Weight of a large string value (50–300 KB) among the shapes; 0 never. Default 1 in 60. */
  readonly largeWeight?: number;
}

/** A tool input: a few fields, sometimes deep, sometimes large. */
export function toolInput(options: ToolInputOptions = {}): fc.Arbitrary<Record<string, unknown>> {
  const maxDepth = options.maxDepth ?? 4;
  const plain = fc.array(fc.tuple(objectKey, jsonValue(2)), { maxLength: 4 }).map(objectOf);
  const shapes = [
    { weight: 50, arbitrary: plain },
    {
      weight: 6,
      arbitrary: fc
        .tuple(plain, fc.integer({ min: 3, max: Math.max(3, maxDepth) }), fc.constantFrom(...TOKENS))
        .map(([o, d, t]) => objectOf([...Object.entries(o), ['deep', nested(d, t)]])),
    },
  ];
  const large = options.largeWeight ?? 1;
  if (large > 0)
    shapes.push({
      weight: large,
      arbitrary: fc
        .tuple(plain, fc.integer({ min: 50_000, max: 300_000 }), fc.constantFrom(...TOKENS, '\u00e9', '😀'))
        .map(([o, n, t]) => objectOf([...Object.entries(o), ['content', t.repeat(Math.ceil(n / t.length))]])),
    });
  return fc.oneof(...shapes);
}

export const toolName: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...TOOL_NAMES) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,12}$/) },
);
