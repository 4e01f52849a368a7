// Reading hook-controlled text out of the guest without ever copying more than a cap to the host:
// a guest string is cut inside the guest (with String.prototype.slice, captured before any hook code
// ran) before it crosses; any other value is turned into a string by the guest itself (the captured
// String() or JSON.stringify), under the hook's deadline and memory limit. Properties are read with
// the captured Reflect.get, so a throwing or looping getter is an error or a timeout, never a host
// exception. QuickJS's dump() is never called on a guest value (it copies the whole value out).
import { type QuickJSContext, type QuickJSHandle, Scope } from 'quickjs-emscripten-core';
import { capText } from '../../src/contract/text-caps.js';

/** Builtins captured before any hook code ran (sandbox.ts), which reading guest text relies on. */
export interface GuestBuiltins {
  readonly ctx: QuickJSContext;
  readonly json: QuickJSHandle;
  readonly stringify: QuickJSHandle;
  readonly string: QuickJSHandle;
  readonly slice: QuickJSHandle;
  readonly reflectGet: QuickJSHandle;
}

/** A guest value read as text: `undefined` when reading it threw (or was interrupted). */
type Text = string | undefined;

/** Runs `fn` with a scope whose handles are disposed afterwards (and a thrown error's handle). */
function scoped<T>(fn: (own: <H extends QuickJSHandle>(h: H) => H) => T): T {
  return Scope.withScope((scope) => fn((h) => scope.manage(h)));
}

/**
 * At most `maxBytes + 1` UTF-16 units of a guest string (one more than fits, so capText marks the cut):
 * longer strings are sliced in the guest first.
 */
function readString(g: GuestBuiltins, s: QuickJSHandle, maxBytes: number): Text {
  const c = g.ctx;
  return scoped((own) => {
    // `length` of a string primitive is its own, unforgeable property: no guest code runs.
    const length = c.getNumber(own(c.getProp(s, 'length')));
    if (length <= maxBytes) return c.getString(s);
    const cut = c.callFunction(g.slice, s, own(c.newNumber(0)), own(c.newNumber(maxBytes + 1)));
    if (cut.error) {
      own(cut.error);
      return undefined;
    }
    return c.getString(own(cut.value));
  });
}

/**
 * Any guest value as text of at most `maxBytes` (UTF-8): strings as they are, objects as JSON when
 * `json` is set (console-style), otherwise through String().
 */
export function readText(g: GuestBuiltins, h: QuickJSHandle, maxBytes: number, json = false): Text {
  const c = g.ctx;
  const type = c.typeof(h);
  if (type === 'string') return capOrUndefined(readString(g, h, maxBytes), maxBytes);
  if (type === 'number' || type === 'boolean' || type === 'undefined') return String(c.dump(h));
  return scoped((own) => {
    if (json && type === 'object') {
      const j = c.callFunction(g.stringify, g.json, h);
      if (j.error) {
        own(j.error);
        return `[${type}]`;
      }
      const text = own(j.value);
      if (c.typeof(text) === 'string') return capOrUndefined(readString(g, text, maxBytes), maxBytes);
    }
    // String() of a symbol is "Symbol(description)"; of an object, whatever its toString says.
    const r = c.callFunction(g.string, c.undefined, h);
    if (r.error) {
      own(r.error);
      return json ? `[${type}]` : undefined;
    }
    const text = own(r.value);
    return c.typeof(text) === 'string' ? capOrUndefined(readString(g, text, maxBytes), maxBytes) : undefined;
  });
}

const capOrUndefined = (t: Text, maxBytes: number): Text => (t === undefined ? t : capText(t, maxBytes));

/**
 * `obj[key]` as text of at most `maxBytes`: `null` when the property is undefined, `undefined` when
 * reading it threw.
 */
function readProp(g: GuestBuiltins, obj: QuickJSHandle, key: string, maxBytes: number): Text | null {
  const c = g.ctx;
  return scoped((own) => {
    const r = c.callFunction(g.reflectGet, c.undefined, obj, own(c.newString(key)));
    if (r.error) {
      own(r.error);
      return undefined;
    }
    const value = own(r.value);
    if (c.typeof(value) === 'undefined') return null;
    return readText(g, value, maxBytes);
  });
}

/** What the host learns of a thrown value: bounded name, message and stack. */
export interface ThrownText {
  readonly name: string;
  readonly message: string;
  /** The head of its stack (for the location), when it has one. */
  readonly stack: string | undefined;
}

/** Cap of an error's name, and of the part of its stack searched for a location. */
const NAME_BYTES = 256;
const STACK_BYTES = 4096;
const UNREADABLE = '(unreadable: reading it threw)';

/** Reads a thrown value: an Error-like object's name/message/stack, or any other value as text. */
export function readThrown(g: GuestBuiltins, h: QuickJSHandle, maxMessageBytes: number): ThrownText {
  const c = g.ctx;
  const type = c.typeof(h);
  if ((type !== 'object' && type !== 'function') || c.sameValue(h, c.null)) {
    return { name: 'Error', message: readText(g, h, maxMessageBytes) ?? UNREADABLE, stack: undefined };
  }
  const name = readProp(g, h, 'name', NAME_BYTES);
  const message = readProp(g, h, 'message', maxMessageBytes);
  const stack = readProp(g, h, 'stack', STACK_BYTES);
  return {
    name: name === null ? 'Error' : (name ?? UNREADABLE),
    // An object thrown without name or message (`throw {…}`) is shown through its String().
    message:
      message === undefined
        ? UNREADABLE
        : message !== null
          ? message
          : name === null
            ? (readText(g, h, maxMessageBytes) ?? '')
            : '',
    stack: stack ?? undefined,
  };
}

/**
 * The first `file:line[:col]` of a stack's `at …` lines. Linear in the (capped) stack: no regex
 * backtracking over hook-controlled text.
 */
export function locationOf(stack: string | undefined): string | undefined {
  if (stack === undefined) return undefined;
  for (const raw of stack.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith('at ')) continue;
    let loc = line.slice(3);
    if (loc.endsWith(')')) {
      const open = loc.lastIndexOf('(');
      if (open < 0) continue;
      loc = loc.slice(open + 1, -1);
    }
    if (/^[^()]+:\d+(?::\d+)?$/.test(loc)) return loc;
  }
  return undefined;
}
