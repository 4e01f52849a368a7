// Bad input, for trust invariant 4: byte strings (random, or JSON cut, flipped, nested without end,
// with a BOM, invalid UTF-8, NUL, duplicate keys), values no JSON has (BigInt, symbols, functions,
// cycles, getters and proxies that throw, sparse arrays, class instances), hook inputs with every
// field of the wrong type, event names and dispatch options of every kind.
import fc from 'fast-check';
import { eventInput, eventName } from './events.js';
import { jsonValue, objectKey, objectOf, oddString, shortString } from './inputs.js';

/** Event names: real ones (hookwarden's, Claude Code's, aliases, custom), near misses, garbage. */
export const anyEvent: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: eventName },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'PermissionRequest',
      'UserPromptSubmit',
      'Stop',
      'TurnEnd',
      'SubagentStop',
      'Notification',
      'SessionEnd',
      'AfterModel',
      'BeforeCompact',
      'PreCompact',
      'Setup',
      'FileChanged',
      'CwdChanged',
      'Elicitation',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' BeforeTool',
      'beforetool',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: oddString },
);

class Widget {
  readonly n = 1;
}

/** Values no JSON has, and values that fight being read. */
const alien: fc.Arbitrary<unknown> = fc
  .constantFrom<() => unknown>(
    () => undefined,
    () => Number.NaN,
    () => Number.POSITIVE_INFINITY,
    () => -0,
    () => 10n ** 30n,
    () => Symbol('s'),
    () => () => 1,
    () => new Date(Number.NaN),
    () => new Date(0),
    () => new Map([['a', 1]]),
    () => new Set([1]),
    () => /re/g,
    () => new Uint8Array([1, 2]),
    () => new Widget(),
    () => Object.create(null),
    () => Object.freeze({ a: 1 }),
    // A sparse array (a hole at 1).
    () => {
      const a: unknown[] = [1];
      a[2] = 3;
      return a;
    },
    () => {
      const o: Record<string, unknown> = { a: 1 };
      o.self = o;
      return o;
    },
    () => ({
      get command() {
        throw new Error('getter says no');
      },
      // How fast-check prints it (printing reads properties otherwise).
      [fc.toStringMethod]: () => '{ get command() { throw } }',
    }),
    () =>
      new Proxy(
        {},
        {
          ownKeys() {
            throw new Error('proxy says no');
          },
          get(_, key) {
            // How fast-check prints it (it probes symbols first): only string keys throw.
            if (typeof key === 'symbol') return key === fc.toStringMethod ? () => 'Proxy(throws)' : undefined;
            throw new Error('proxy says no');
          },
        },
      ),
    () => new Proxy([1, 2], {}),
    () => ({
      toJSON() {
        throw new Error('toJSON says no');
      },
    }),
    () => new WeakMap(),
    () => Promise.resolve(1),
    () => 'x'.repeat(1 << 20),
  )
  .map((make) => make());

/** A value of any kind, JSON or not, nested a little. */
const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { weight: 3, arbitrary: jsonValue(1) },
    { weight: 2, arbitrary: alien },
    { weight: 1, arbitrary: fc.array(tie('v'), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.array(fc.tuple(objectKey, tie('v')), { maxLength: 3 }).map(objectOf) },
  ),
})).v;

/** Nested `depth` levels (objects or arrays), far past any limit sometimes. */
const deep = fc.tuple(fc.integer({ min: 30, max: 20_000 }), fc.boolean()).map(([depth, arrays]) => {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { k: v };
  return v;
});

const FIELDS = [
  'toolName',
  'toolInput',
  'sessionId',
  'cwd',
  'timestamp',
  'prompt',
  'ok',
  'request',
  'toolResult',
  'caller',
  'compaction',
  'tool_name',
  'tool_input',
  'session_id',
  'hook_event_name',
];

/** A hook input: a valid one with fields replaced by values of any kind, or no object at all. */
export const anyInput: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: eventName.chain((e) => eventInput(e, { largeWeight: 0 })) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        eventName.chain((e) => eventInput(e, { largeWeight: 0 })),
        fc.array(fc.tuple(fc.constantFrom(...FIELDS), fc.oneof(anyValue, deep, shortString)), {
          minLength: 1,
          maxLength: 3,
        }),
      )
      .map(([base, extra]) => objectOf([...Object.entries(base), ...extra])),
  },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: anyValue },
);

/** Dispatch options: none, a tenant of any spelling, unknown keys, not an object. */
export const anyOptions: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.record({
      tenant: fc.oneof(fc.constantFrom('acme', 'a'.repeat(65), '..', 'a/b', ''), shortString),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(null, 'acme', 7, [], { tenantt: 'acme' }, { signal: 'no' }),
  },
  // The environment hooks inherit from (the Claude Code daemon passes its client's): of any kind.
  { weight: 2, arbitrary: anyValue.map((env) => ({ env })) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom('HOME', 'PATH', 'HW_X', '__proto__', 'A=B', ''), anyValue), {
        maxLength: 3,
      })
      .map((entries) => ({ env: objectOf(entries) })),
  },
);

const enc = new TextEncoder();

/** Byte strings: a JSON text damaged in one of many ways, or random bytes. */
export const anyBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 3, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        eventName.chain((e) => eventInput(e, { largeWeight: 0 })),
        fc.constantFrom(
          'none',
          'cut',
          'flip',
          'bom',
          'utf8',
          'nul',
          'dup',
          'trailing',
          'comment',
          'number',
          'claude',
        ),
        fc.nat(),
        anyEvent,
      )
      .map(([input, how, at, event]) => {
        let text = JSON.stringify(
          how === 'claude'
            ? {
                hook_event_name: event,
                tool_name: input.toolName,
                tool_input: input.toolInput,
                session_id: 's',
              }
            : input,
        );
        const i = text.length === 0 ? 0 : at % text.length;
        if (how === 'cut') text = text.slice(0, i);
        if (how === 'bom') text = `\ufeff${text}`;
        if (how === 'nul') text = `${text.slice(0, i)}\u0000${text.slice(i)}`;
        if (how === 'dup') text = text.replace(/^\{/, '{"toolName":"Bash","toolName":"Read",');
        if (how === 'trailing') text += ' }garbage';
        if (how === 'comment') text = `// a comment\n${text}`;
        if (how === 'number')
          text = text.replace(/^\{/, '{"n":1e400,"m":-0,"o":123456789012345678901234567890,');
        const bytes = enc.encode(text);
        if (how === 'flip' && bytes.length > 0)
          bytes[i % bytes.length] = (bytes[i % bytes.length] ?? 0) ^ 0x80;
        if (how === 'utf8')
          return Uint8Array.from([...bytes.slice(0, i), 0xc3, 0x28, 0xff, ...bytes.slice(i)]);
        return bytes;
      }),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 100_000 })
      .map((n) => enc.encode(`${'['.repeat(n)}${']'.repeat(n)}`)),
  },
);
