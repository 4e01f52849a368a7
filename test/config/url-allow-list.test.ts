import { describe, expect, it } from 'vitest';
import {
  admittingPattern,
  globMatches,
  parseHookUrl,
  parseUrlPattern,
  type UrlPattern,
} from '../../src/config/url-allow-list.js';

const patterns = (...sources: string[]): UrlPattern[] =>
  sources.map((s) => {
    const p = parseUrlPattern(s);
    if (!p.ok) throw new Error(`${s}: ${p.message}`);
    return p.value;
  });

/** The pattern that admits `url` (its source), null when none does, or the URL's refusal. */
function admitted(url: string, list: UrlPattern[]): string | null {
  const u = parseHookUrl(url);
  if (!u.ok) return `refused: ${u.message}`;
  return admittingPattern(list, u.value)?.source ?? null;
}

/** A refusal whose message says `why`. */
function expectRefused(r: { ok: true } | { ok: false; message: string }, why: string): void {
  expect(r).toMatchObject({ ok: false, message: expect.stringContaining(why) });
}

describe('hook URLs', () => {
  it('are normalised as they are sent: lower-case scheme and host, no trailing dot, dot segments resolved, no default port', () => {
    const u = parseHookUrl('HTTP://Hooks.Example.COM.:80/a/../pre-tool?x=1');
    expect(u).toEqual({
      ok: true,
      value: {
        href: 'http://hooks.example.com/pre-tool?x=1',
        scheme: 'http',
        host: 'hooks.example.com',
        rest: ':80/pre-tool?x=1',
      },
    });
  });

  it.each([
    ['http://allowed.example.com@evil.test/', 'user:password@'],
    ['http://user:pw@allowed.example.com/', 'user:password@'],
    ['ftp://allowed.example.com/', 'only http and https'],
    ['file:///etc/passwd', 'only http and https'],
    ['data:application/json,{}', 'only http and https'],
    ['javascript:alert(1)', 'only http and https'],
    ['http://allowed.example.com\\@evil.test/', 'backslash'],
    ['http://allo\nwed.example.com/', 'control character'],
    ['http://allowed.example.com /', 'space'],
    ['http://allowed.example.com/#frag', 'fragment'],
    ['/relative/path', 'absolute URL'],
    // The parser reads these as https://allowed.example.com/: refused, so the text is the request.
    ['https:allowed.example.com/', '"https://" and then the host'],
    ['https:/allowed.example.com/', '"https://" and then the host'],
    ['https:///allowed.example.com/', '"https://" and then the host'],
    // `*.example.com` would admit them (an empty label where the wildcard is).
    ['https://.allowed.example.com/', 'empty label'],
    ['https://allowed..example.com/', 'empty label'],
    ['http://localhost../', 'empty label'],
  ])('%j is refused (%s)', (url, why) => expectRefused(parseHookUrl(url), why));

  it('longer than 8 KiB are refused', () => {
    expect(parseHookUrl(`http://a.test/${'x'.repeat(9000)}`)).toMatchObject({ ok: false });
  });
});

describe('allowedHttpHookUrls patterns', () => {
  const list = patterns('https://hooks.example.com/*', 'http://localhost:*', 'https://*.corp.example/api/*');

  it.each([
    ['https://hooks.example.com/pre-tool', 'https://hooks.example.com/*'],
    ['HTTPS://HOOKS.EXAMPLE.COM/pre-tool', 'https://hooks.example.com/*'],
    ['https://hooks.example.com./pre-tool', 'https://hooks.example.com/*'],
    ['https://hooks.example.com:443/pre-tool', 'https://hooks.example.com/*'],
    // Other spellings of the same host: the normalised URL is what is matched and what is sent.
    ['https://hooks%2Eexample.com/pre-tool', 'https://hooks.example.com/*'],
    ['https://hooks\u3002example\u3002com/pre-tool', 'https://hooks.example.com/*'],
    ['https://hooks.example.com/a/b?c=d', 'https://hooks.example.com/*'],
    ['http://localhost:8080/hook', 'http://localhost:*'],
    ['http://localhost/hook', 'http://localhost:*'],
    ['https://team.corp.example/api/pre', 'https://*.corp.example/api/*'],
    ['https://a.b.corp.example/api/pre', 'https://*.corp.example/api/*'],
  ])('%s is admitted by %s', (url, by) => {
    expect(admitted(url, list)).toBe(by);
  });

  it.each([
    // A look-alike host: the wildcard of the path cannot reach into the host.
    'https://hooks.example.com.evil.test/pre-tool',
    'https://evil.test/hooks.example.com/x',
    'https://hooks.example.com%2eevil.test/',
    // Another scheme or port than the pattern's.
    'http://hooks.example.com/pre-tool',
    'https://hooks.example.com:8443/pre-tool',
    // A host wildcard stays inside the host.
    'https://evil.test/x.corp.example/api/pre',
    'https://corp.example/api/pre',
    'https://team.corp.example/admin',
    // localhost by another name is another host.
    'http://127.0.0.1:8080/hook',
    'http://localhost.evil.test:8080/hook',
    // A homograph (Cyrillic letters) is punycode, not the host it looks like.
    'https://hооks.example.com/pre-tool',
  ])('%s is not admitted', (url) => {
    expect(admitted(url, list)).toBeNull();
  });

  it('refuses userinfo before any pattern is asked, even one that admits everything', () => {
    expect(admitted('https://hooks.example.com@evil.test/', patterns('*'))).toMatch(/^refused: .*user/);
    expect(admitted('https://anything.test/x', patterns('*'))).toBe('*');
  });

  it('compares addresses in their canonical form (IPv4 spellings, IPv6 compression)', () => {
    const ips = patterns('http://127.0.0.1:*', 'http://[0:0:0:0:0:0:0:1]:9000/*');
    expect(admitted('http://0x7f.0.0.1:8080/x', ips)).toBe('http://127.0.0.1:*');
    expect(admitted('http://2130706433:8080/x', ips)).toBe('http://127.0.0.1:*');
    expect(admitted('http://[::1]:9000/hook', ips)).toBe('http://[0:0:0:0:0:0:0:1]:9000/*');
    expect(admitted('http://[::1]:9001/hook', ips)).toBeNull();
    expect(admitted('http://[::2]:9000/hook', ips)).toBeNull();
    // An IPv4-mapped IPv6 address is another host for the list (it fails closed).
    expect(admitted('http://[::ffff:127.0.0.1]:8080/x', ips)).toBeNull();
  });

  it('compares paths as the parser writes them (percent-encoding case, dot segments)', () => {
    const p = patterns('https://h.example/hooks/%c3%a9/*');
    expect(admitted('https://h.example/hooks/é/x', p)).toBe('https://h.example/hooks/%c3%a9/*');
    expect(admitted('https://h.example/hooks/x/../%C3%A9/y', p)).toBe('https://h.example/hooks/%c3%a9/*');
    expect(admitted('https://h.example/other/%C3%A9/y', p)).toBeNull();
  });

  it('write ports as numbers (a leading zero or the default port change nothing)', () => {
    expect(admitted('https://h.example/x', patterns('https://h.example:0443/*'))).toBe(
      'https://h.example:0443/*',
    );
    expect(admitted('http://h.example:8080/x', patterns('http://h.example:08080/*'))).toBe(
      'http://h.example:08080/*',
    );
  });

  it('without a path admit the root only, unless they end in a port wildcard', () => {
    const p = patterns('https://h.example');
    expect(admitted('https://h.example/', p)).toBe('https://h.example');
    expect(admitted('https://h.example/x', p)).toBeNull();
  });

  it.each([
    ['ftp://h.example/*', 'only http and https'],
    ['https://user@h.example/*', 'expected a URL pattern'],
    ['https://h.example/#x', 'expected a URL pattern'],
    ['https://h_e[x]/*', 'expected a URL pattern'],
    ['https://h.*é.example/*', 'may hold only'],
    ['hooks.example.com/*', 'expected a URL pattern'],
    ['https://h.example:99999999999/', 'port out of range'],
  ])('%j is not a valid pattern (%s)', (source, why) => expectRefused(parseUrlPattern(source), why));

  it('warn when a host wildcard touches letters (it admits other domains)', () => {
    const p = parseUrlPattern('https://*example.com/*');
    expect(p.ok && p.warning).toContain('evilexample.com');
    expect(parseUrlPattern('https://*.example.com/*')).not.toHaveProperty('warning');
  });
});

describe('globMatches', () => {
  it('matches * as any run of characters and everything else literally', () => {
    expect(globMatches('a*c', 'abbbc')).toBe(true);
    expect(globMatches('a*c', 'abbb')).toBe(false);
    expect(globMatches('*', '')).toBe(true);
    expect(globMatches('a.c', 'abc')).toBe(false);
    expect(globMatches('*a*a*a*a*b', 'a'.repeat(5000))).toBe(false);
  });
});
