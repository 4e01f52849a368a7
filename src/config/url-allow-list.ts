// `allowedHttpHookUrls` (Claude Code's key): which URLs an http hook may be sent to. A pattern is a
// URL with `*` wildcards. Both sides are compared in their parsed, normalised form (the WHATWG URL
// parser: lower-case scheme and host, punycode, canonical IPv4/IPv6, dot segments resolved, default
// port made explicit, one trailing dot of the host dropped) and piece by piece, so a wildcard cannot
// reach across pieces: the host is matched on its own (`*` stays inside the host), then the rest
// (`:port/path?query`, where `*` matches anything, so Claude Code's `http://localhost:*` admits every
// port and path of localhost). URLs with user:password@, a fragment, a non-http(s) scheme, control
// characters, spaces or backslashes, an empty host label, or without "//" after the scheme are
// refused outright.

/** Longest hook URL and pattern accepted (bytes of the text as written). */
const MAX_URL_LENGTH = 8_192;

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };
// Control characters, space and backslash: the parser would drop or reinterpret them, so the text a
// reviewer reads would not be the URL that is sent.
const UNPLAIN = /[\u0000-\u0020\u007f\\]/;

/** A hook URL as it is matched and sent. */
export interface HookUrl {
  /** The URL the request goes to: normalised, without fragment. */
  readonly href: string;
  readonly scheme: 'http' | 'https';
  /** Lower case, punycode, no trailing dot; IPv6 in brackets. */
  readonly host: string;
  /** `:port/path?query`, the port always written. */
  readonly rest: string;
}

export interface UrlPattern {
  /** As written. */
  readonly source: string;
  /** `*` alone: every http and https URL. */
  readonly any: boolean;
  readonly scheme: 'http' | 'https';
  readonly host: string;
  readonly rest: string;
}

type Parsed<T> = { ok: true; value: T; warning?: string } | { ok: false; message: string };

const upperEscapes = (s: string) => s.replace(/%[0-9a-f]{2}/gi, (e) => e.toUpperCase());
const dropTrailingDot = (host: string) => (host.endsWith('.') ? host.slice(0, -1) : host);

/** Parses and normalises an http hook's `url`. */
export function parseHookUrl(raw: string): Parsed<HookUrl> {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, message: `longer than ${MAX_URL_LENGTH} characters` };
  if (UNPLAIN.test(raw))
    return { ok: false, message: 'contains a space, a control character or a backslash' };
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { ok: false, message: 'not an absolute URL like "https://hooks.example.com/pre-tool"' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return {
      ok: false,
      message: `only http and https URLs are sent, got scheme "${u.protocol.slice(0, -1)}"`,
    };
  // The parser also takes `https:host`, `https:/host` and `https:///host` for `https://host`.
  if (!/^https?:\/\/[^/]/i.test(raw))
    return { ok: false, message: 'expected "http://" or "https://" and then the host' };
  if (u.username !== '' || u.password !== '')
    return {
      ok: false,
      message:
        'a URL with user:password@ is refused (it hides where the request goes): send credentials in "headers"',
    };
  if (raw.includes('#')) return { ok: false, message: 'a fragment (#…) is never sent: remove it' };
  const host = dropTrailingDot(u.hostname);
  if (host === '') return { ok: false, message: 'no host' };
  if (!host.startsWith('[') && host.split('.').includes(''))
    return { ok: false, message: `the host "${host}" has an empty label (".." or a leading ".")` };
  u.hostname = host;
  const port = u.port === '' ? DEFAULT_PORT[u.protocol]! : u.port;
  return {
    ok: true,
    value: {
      href: u.href,
      scheme: u.protocol === 'http:' ? 'http' : 'https',
      host,
      rest: `:${port}${upperEscapes(u.pathname + u.search)}`,
    },
  };
}

const PATTERN = /^([A-Za-z]+):\/\/(\[[^\]]*\]|[^/:?#[\]@]*)(?::([0-9]+|\*))?([/?][^#]*)?$/;

/** Parses one `allowedHttpHookUrls` entry; `warning` when it admits more than it seems to. */
export function parseUrlPattern(source: string): Parsed<UrlPattern> {
  const any = { source, any: true, scheme: 'http', host: '', rest: '' } as const;
  if (source === '*') return { ok: true, value: any };
  if (source.length > MAX_URL_LENGTH)
    return { ok: false, message: `longer than ${MAX_URL_LENGTH} characters` };
  if (UNPLAIN.test(source))
    return { ok: false, message: 'contains a space, a control character or a backslash' };
  const m = PATTERN.exec(source);
  const fix = 'expected a URL pattern like "https://hooks.example.com/*" or "http://localhost:*"';
  if (m === null) return { ok: false, message: `${fix} (no user@, no #fragment)` };
  const scheme = m[1]!.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https')
    return { ok: false, message: `only http and https URLs are allowed, got scheme "${m[1]}"` };
  let host = dropTrailingDot(m[2]!.toLowerCase());
  if (host === '') return { ok: false, message: `${fix} (no host)` };
  if (host.includes('*')) {
    if (!/^[a-z0-9.*-]+$/.test(host))
      return { ok: false, message: 'a host with "*" may hold only letters, digits, ".", "-" and "*"' };
  } else {
    try {
      host = dropTrailingDot(new URL(`${scheme}://${host}/`).hostname);
    } catch {
      return { ok: false, message: `not a valid host, got "${m[2]}"` };
    }
  }
  let port = m[3] ?? DEFAULT_PORT[`${scheme}:`]!;
  if (port !== '*') {
    if (Number(port) > 65_535) return { ok: false, message: `port out of range, got "${m[3]}"` };
    port = String(Number(port));
  }
  let rest: string;
  if (m[4] === undefined) {
    // No path: the root only, unless the pattern ends in a port wildcard, which covers the path too
    // (Claude Code's own example, "http://localhost:*").
    rest = m[3] === '*' ? ':*' : `:${port}/`;
  } else {
    const path = m[4].startsWith('?') ? `/${m[4]}` : m[4];
    // The path as the parser writes it (percent-encoding, dot segments); `*` is left as it is.
    const u = new URL(path, 'http://h');
    rest = `:${port}${upperEscapes(u.pathname + u.search)}`;
  }
  const value: UrlPattern = { source, any: false, scheme, host, rest };
  // `*example.com` also admits `evilexample.com`; `*.example.com` is what is usually meant.
  const loose = /\*[a-z0-9-]/.test(host) || /[a-z0-9-]\*/.test(host);
  return loose
    ? {
        ok: true,
        value,
        warning: `"*" next to letters in the host also admits other domains (e.g. "${host.replace(/\*/g, 'evil')}"); write "*.${host.replace(/^\*+\.?/, '')}" for subdomains`,
      }
    : { ok: true, value };
}

/** Whether `text` matches `glob`, where `*` is any run of characters (no other metacharacter). */
export function globMatches(glob: string, text: string): boolean {
  let g = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  // The classic greedy matcher with one backtrack point: O(|glob| · |text|) at worst, no recursion.
  while (t < text.length) {
    if (g < glob.length && glob[g] === '*') {
      star = g++;
      resume = t;
    } else if (g < glob.length && glob[g] === text[t]) {
      g++;
      t++;
    } else if (star >= 0) {
      g = star + 1;
      t = ++resume;
    } else return false;
  }
  while (g < glob.length && glob[g] === '*') g++;
  return g === glob.length;
}

/** The first pattern that admits `url`, or undefined. */
export function admittingPattern(patterns: readonly UrlPattern[], url: HookUrl): UrlPattern | undefined {
  return patterns.find(
    (p) =>
      p.any || (p.scheme === url.scheme && globMatches(p.host, url.host) && globMatches(p.rest, url.rest)),
  );
}
