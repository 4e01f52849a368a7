import { describe, expect, it } from 'vitest';
import { HookwardenError, isHookwardenError } from '../../src/contract/hookwarden-error.js';
import { AuthFileError, readAuthFile } from '../../src/server/auth-file.js';
import { resolveServeOptions, SERVE_DEFAULTS, ServeOptionsError } from '../../src/server/options.js';
import { tempDir, writeFile } from '../helpers/fixture.js';

const base = { executor: {}, listen: '127.0.0.1:0' };

describe('serve options', () => {
  it('pins the defaults', () => {
    expect(SERVE_DEFAULTS).toEqual({
      drainTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      maxHeaderBytes: 16_384,
      retryAfterSeconds: 1,
      maxEventStreams: 256,
      maxEventStreamsPerTenant: 8,
    });
    expect(Object.isFrozen(SERVE_DEFAULTS)).toBe(true);
    const o = resolveServeOptions(base);
    expect(o).toMatchObject({
      ...SERVE_DEFAULTS,
      listen: { host: '127.0.0.1', port: 0 },
      authFile: undefined,
    });
    expect(Object.isFrozen(o)).toBe(true);
  });

  it('names the option and the value of each problem', () => {
    const bad = (o: object) => () => resolveServeOptions({ ...base, ...o });
    expect(bad({ drainTimeoutMs: 0 })).toThrow(
      new ServeOptionsError('drainTimeoutMs: expected at least 1 ms, got 0'),
    );
    expect(bad({ maxHeaderBytes: 10 })).toThrow('maxHeaderBytes: expected at least 1024 bytes, got 10');
    expect(bad({ requestTimeoutMs: 1.5 })).toThrow(
      'requestTimeoutMs: expected a whole number of milliseconds, got 1.5',
    );
    expect(bad({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 })).toThrow(
      'must not exceed requestTimeoutMs',
    );
    expect(bad({ listen: 'nowhere' })).toThrow('listen: expected HOST:PORT');
    expect(bad({ metricsListen: '1.2.3.4' })).toThrow('metricsListen: expected HOST:PORT');
  });

  it('accepts an address other machines can reach only with an auth file', () => {
    expect(() => resolveServeOptions({ ...base, listen: '0.0.0.0:8080' })).toThrow(
      'without --auth anyone could dispatch',
    );
    expect(resolveServeOptions({ ...base, listen: '0.0.0.0:8080', authFile: '/x' }).listen?.host).toBe(
      '0.0.0.0',
    );
    // --metrics-listen serves only metrics and probes: any address.
    expect(resolveServeOptions({ ...base, metricsListen: '0.0.0.0:9464' }).metricsListen).toEqual({
      host: '0.0.0.0',
      port: 9464,
    });
  });

  it("the service's option and auth file errors are HookwardenErrors with a code of the one list", () => {
    let options: unknown;
    try {
      resolveServeOptions({ ...base, drainTimeoutMs: 0 });
    } catch (err) {
      options = err;
    }
    expect(options).toBeInstanceOf(ServeOptionsError);
    expect(options).toBeInstanceOf(HookwardenError);
    expect(isHookwardenError(options)).toBe(true);
    expect(options).toMatchObject({ name: 'ServeOptionsError', code: 'invalid_options' });
    const file = `${tempDir('hw-auth-err-')}/auth.json`;
    writeFile(file, '{"tokens": [{"sha256": "x"}]');
    let auth: unknown;
    try {
      readAuthFile(file);
    } catch (err) {
      auth = err;
    }
    expect(auth).toBeInstanceOf(AuthFileError);
    expect(isHookwardenError(auth)).toBe(true);
    expect(auth).toMatchObject({ name: 'AuthFileError', code: 'auth_file_invalid', file });
    expect((auth as HookwardenError).problems).toEqual([(auth as Error).message]);
  });
});
