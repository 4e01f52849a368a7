import { describe, expect, it } from 'vitest';
import { addressUrl, isLoopback, parseListenAddress } from '../../src/server/listen-address.js';

describe('--listen addresses', () => {
  it('reads IPv4, bracketed IPv6 and localhost, with port 0 for a free port', () => {
    expect(parseListenAddress('127.0.0.1:8080')).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(parseListenAddress('[::1]:0')).toEqual({ host: '::1', port: 0 });
    expect(parseListenAddress('localhost:9000')).toEqual({ host: '127.0.0.1', port: 9000 });
    expect(parseListenAddress('0.0.0.0:80')).toEqual({ host: '0.0.0.0', port: 80 });
  });

  it('refuses names, bare IPv6, missing or out-of-range ports, with the reason', () => {
    const problem = (v: string) => (parseListenAddress(v) as { problem: string }).problem;
    expect(problem('example.com:80')).toContain('not an IP address');
    expect(problem('::1:80')).toContain('expected HOST:PORT');
    expect(problem('127.0.0.1')).toContain('expected HOST:PORT');
    expect(problem('127.0.0.1:65536')).toBe('port 65536 is above 65535');
    expect(problem('127.0.0.1:-1')).toContain('expected HOST:PORT');
    expect(problem('')).toContain('expected HOST:PORT');
  });

  it('knows which addresses only this machine can reach', () => {
    for (const h of ['127.0.0.1', '127.8.9.10', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])
      expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.1', '::ffff:10.0.0.1', 'localhost', ''])
      expect(isLoopback(h), h).toBe(false);
  });

  it('writes IPv6 URLs in brackets', () => {
    expect(addressUrl('::1', 8080)).toBe('http://[::1]:8080');
    expect(addressUrl('127.0.0.1', 1)).toBe('http://127.0.0.1:1');
  });
});
