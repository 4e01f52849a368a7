import { describe, expect, it } from 'vitest';
import { wantsOnlyEventStream } from '../../src/server/routes/catalogue.js';
import { newToken, TOKEN_PREFIX, TokenTable, tokenDigest } from '../../src/server/tokens.js';

describe('tokens', () => {
  it('are 32 random bytes, stored only as their SHA-256', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { token, entry } = newToken({ tenant: 'acme' });
      expect(token.startsWith(TOKEN_PREFIX)).toBe(true);
      expect(Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url')).toHaveLength(32);
      expect(entry).toEqual({ sha256: tokenDigest(token).toString('hex'), tenant: 'acme' });
      expect(JSON.stringify(entry)).not.toContain(token.slice(TOKEN_PREFIX.length));
      seen.add(token);
    }
    expect(seen.size).toBe(200);
    expect(() => newToken({ tenant: 'a/b' })).toThrow('--tenant: expected a tenant id');
  });

  it('verify to their principal; anything else, however close, to nothing', () => {
    const a = newToken({ tenant: 'acme' });
    const admin = newToken({ admin: true });
    const table = new TokenTable([a.entry, admin.entry]);
    expect(table.verify(a.token)).toEqual({ kind: 'tenant', tenant: 'acme' });
    expect(table.verify(admin.token)).toEqual({ kind: 'admin' });
    for (const wrong of [
      '',
      a.token.slice(0, -1),
      `${a.token}x`,
      a.token.toUpperCase(),
      a.entry.sha256,
      ` ${a.token}`,
    ])
      expect(table.verify(wrong), wrong).toBeUndefined();
    expect([...table.tenants]).toEqual(['acme']);
    expect(table.size).toBe(2);
  });
});

describe('Accept of GET /v1/events', () => {
  it('is an event stream only when JSON is not acceptable too', () => {
    expect(wantsOnlyEventStream(undefined)).toBe(false);
    expect(wantsOnlyEventStream('application/json')).toBe(false);
    expect(wantsOnlyEventStream('text/event-stream')).toBe(true);
    expect(wantsOnlyEventStream('Text/Event-Stream; charset=utf-8')).toBe(true);
    expect(wantsOnlyEventStream('text/event-stream, */*;q=0.1')).toBe(false);
    expect(wantsOnlyEventStream('text/event-stream, application/json')).toBe(false);
  });
});
