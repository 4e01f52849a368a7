// How BullMQ's failure of a job reads as a hook error: a stall is recognised by BullMQ's deferred
// failure (what its stalled-job check records), never by the words of the error. The end-to-end
// stall, on a real Redis, is test/server/serve-redis-stall.test.ts.
import { describe, expect, it } from 'vitest';
import { queueFailure } from '../../src/async/async-job.js';

const job = (o: { deferredFailure?: string; attemptsMade: number; attempts: number }) => ({
  deferredFailure: o.deferredFailure as string,
  attemptsMade: o.attemptsMade,
  opts: { attempts: o.attempts },
});

describe('queueFailure', () => {
  it('a job BullMQ failed for stalling is job_stalled, whatever its error says', () => {
    const stalled = job({
      deferredFailure: 'job stalled more than allowable limit',
      attemptsMade: 0,
      attempts: 3,
    });
    expect(queueFailure(stalled, new Error('job stalled more than allowable limit'))).toMatchObject({
      code: 'job_stalled',
    });
    expect(queueFailure(stalled, new Error('Unrecoverable'))).toMatchObject({ code: 'job_stalled' });
  });

  it('an error that only mentions stalling is not a stall', () => {
    const last = job({ attemptsMade: 3, attempts: 3 });
    expect(queueFailure(last, new Error('ERR redis: stalled connection'))).toMatchObject({
      code: 'queue_unavailable',
      message: 'the queue failed the job: ERR redis: stalled connection',
    });
    // Not the last attempt: BullMQ tries it again, nothing is final yet.
    expect(queueFailure(job({ attemptsMade: 1, attempts: 3 }), new Error('stalled'))).toBeUndefined();
  });
});
