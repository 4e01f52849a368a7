// createExecutor's `queue` option refuses what it cannot use with a typed error naming the field, and
// never repeats a Redis password in it (errors end up in logs: `serve --queue` prints them).
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';

describe('queue options', () => {
  it('an invalid Redis URL is invalid_options, its password not repeated', async () => {
    const err = await createExecutor({
      config: {},
      queue: { redis: 'redis://user:s3cretpw@127.0.0.1:6379/0 x' },
      onWarning: () => {},
    }).then(
      () => undefined,
      (e: unknown) => e as Error & { code: string; details?: unknown },
    );
    expect(err?.code).toBe('invalid_options');
    expect(err?.message).toMatch(/queue\.redis: expected a URL like redis:\/\//);
    expect(JSON.stringify({ message: err?.message, details: err?.details })).not.toContain('s3cretpw');
  });

  it('out-of-range numbers name their field', async () => {
    await expect(createExecutor({ config: {}, queue: { concurrency: 0 } })).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringMatching(/queue\.concurrency/),
    });
  });
});
