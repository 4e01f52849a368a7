// The guest prelude: plain JavaScript evaluated in every fresh QuickJS context before the hook's
// module. It makes the sandbox deterministic (Date and Math.random), captures console.* through the
// only host function, and returns the two guest functions hookwarden calls: `invoke` (parse and
// deep-freeze the input, call the default export) and `finish` (serialize the answer with the
// JSON.stringify captured here, before any hook code could replace it).
export const PRELUDE = String.raw`(function (s0, s1, s2, s3, nowMs, hostLog) {
  'use strict';
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const freeze = Object.freeze;
  const isFrozen = Object.isFrozen;
  const keys = Object.keys;
  const RealDate = Date;

  // Math.random: sfc32 seeded from (hook id, input digest), so output is a function of the input.
  let a = s0 | 0, b = s1 | 0, c = s2 | 0, d = s3 | 0;
  function random() {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
  for (let i = 0; i < 12; i++) random();
  Object.defineProperty(Math, 'random', { value: random, writable: false, configurable: false });

  // Date: "now" is the event's timestamp.
  function FixedDate(...args) {
    if (new.target === undefined) return new RealDate(nowMs).toString();
    return args.length === 0 ? new RealDate(nowMs) : new RealDate(...args);
  }
  FixedDate.prototype = RealDate.prototype;
  FixedDate.now = function now() { return nowMs; };
  FixedDate.parse = RealDate.parse;
  FixedDate.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: FixedDate, writable: true, configurable: true });
  globalThis.Date = FixedDate;

  // console.*: formatted here, handed to the host (which caps them).
  function show(v) {
    if (typeof v === 'string') return v;
    try { const j = stringify(v); return j === undefined ? String(v) : j; } catch (e) { return String(v); }
  }
  const con = {};
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    con[level] = function (...args) { hostLog(level, args.map(show).join(' ')); };
  }
  globalThis.console = freeze(con);

  function deepFreeze(v) {
    if (typeof v !== 'object' || v === null || isFrozen(v)) return v;
    freeze(v);
    for (const k of keys(v)) deepFreeze(v[k]);
    return v;
  }

  function invoke(ns, inputJson, ctxJson) {
    const hook = ns.default;
    if (typeof hook !== 'function') {
      throw new TypeError('the module has no default export function: write export default function (input, ctx) { ... }');
    }
    return hook(deepFreeze(parse(inputJson)), deepFreeze(parse(ctxJson)));
  }

  // Returns the JSON text, undefined for "proceed", or the length when it is over the cap.
  function finish(value, maxChars) {
    if (value === undefined || value === null) return undefined;
    const text = stringify(value);
    if (text === undefined) throw new TypeError('the hook returned a value that is not JSON (' + typeof value + ')');
    return text.length > maxChars ? text.length : text;
  }

  return { invoke, finish };
})`;
