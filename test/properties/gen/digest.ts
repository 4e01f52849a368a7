// A digest of a JSON value that a hook computes on what it was given and the oracle computes on what
// the verdict covers: the same source runs in the QuickJS isolate (embedded in each generated JS
// hook) and here. It is the tests' own (never hookwarden's code), walks without recursion (inputs
// are nested up to 512 levels), and reads strings by UTF-16 code unit, so lone surrogates and odd
// Unicode digest alike in both engines. Two 32-bit FNV-1a lanes: 16 hex digits.

/** The function's source, `function hwDigest(value) { … }`, for a hook's module. */
export const DIGEST_SOURCE = `function hwDigest(value) {
  let a = 0x811c9dc5 | 0, b = 0x2545f491 | 0;
  const mix = (c) => { a = Math.imul(a ^ c, 0x01000193); b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 13); };
  const text = (s) => { mix(s.length & 0xffff); mix(s.length >>> 16); for (let i = 0; i < s.length; i++) mix(s.charCodeAt(i)); };
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === undefined) mix(1);
    else if (v === null) mix(2);
    else if (typeof v === 'boolean') mix(v ? 3 : 4);
    else if (typeof v === 'number') { mix(5); text(String(v)); }
    else if (typeof v === 'string') { mix(6); text(v); }
    else if (typeof v === 'object' && v.hwEnd === hwDigest) mix(v.tag);
    else if (Array.isArray(v)) {
      mix(7); mix(v.length);
      stack.push({ hwEnd: hwDigest, tag: 8 });
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (typeof v === 'object') {
      const keys = Object.keys(v);
      mix(9); mix(keys.length);
      stack.push({ hwEnd: hwDigest, tag: 10 });
      for (let i = keys.length - 1; i >= 0; i--) { stack.push(v[keys[i]]); stack.push(keys[i]); }
    } else mix(11);
  }
  const hex = (n) => (n >>> 0).toString(16).padStart(8, '0');
  return hex(a) + hex(b);
}`;

/** The digest, computed by the same source in this process. */
export const digestOf: (value: unknown) => string = new Function(`${DIGEST_SOURCE}; return hwDigest;`)();

/**
 * What a hook of `event` is said to have seen: the input fields a rewrite can change (tool input,
 * prompt, request, tool result, response, subagent result), in one value.
 */
export function seenValue(input: Readonly<Record<string, unknown>>): unknown[] {
  return [input.toolInput, input.prompt, input.request];
}

/** The same selection, as hook source (`input` in scope). */
export const SEEN_SOURCE = '[input.toolInput, input.prompt, input.request]';
