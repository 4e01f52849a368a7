// A refused dispatch is never a verdict: a hook the machinery refused (its tenant's queue full, the
// executor closing) never looked at the input, so on an event that can deny the verdict is `deny`,
// whatever the hook's onError says; on an observer event it changes nothing. Real command hooks held
// on FIFOs fill the lane; the fold itself is checked for every hook type.
import { describe, expect, it } from 'vitest';
import { hookError } from '../../src/contract/error-codes.js';
import { DEFAULT_EVENTS, defineEvent, EventCatalogue } from '../../src/contract/events.js';
import { foldAnswers, type HookAnswer, notRunAnswer } from '../../src/contract/fold.js';
import { internalsOf } from '../../src/executor/internals.js';
import type { Executor } from '../../src/index.js';
import { waitingPair } from '../helpers/fifo.js';
import { input, tempDir, withExecutor } from '../helpers/fixture.js';

const catalogue = new EventCatalogue([
  ...DEFAULT_EVENTS,
  defineEvent('Gate', { mode: 'parallel', canDeny: true, honours: [] }),
]);

/** Waits (on the pool's own counts, not a timer) until `tenant` has `n` hooks queued on the command lane. */
async function queued(hw: Executor, tenant: string, n: number): Promise<void> {
  const pool = internalsOf(hw).pool;
  while ((pool.command.load().tenants.find((t) => t.tenant === tenant)?.queued ?? 0) < n)
    await new Promise((r) => setImmediate(r));
}

describe('a hook the machinery refused', () => {
  describe.each([
    ['BeforeTool', true],
    ['ApprovalRequest', true],
    ['Gate', true],
    ['SessionStart', false],
    ['AfterTool', false],
  ])('on %s', (event, canDeny) => {
    const def = catalogue.get(event)!;
    it.each(['command', 'js', 'http', 'trusted'] as const)(
      'of type %s, refused queue_full or pool_closed, is folded as no verdict that proceeds',
      (type) => {
        for (const code of ['queue_full', 'pool_closed'] as const) {
          for (const onError of ['skip', 'deny'] as const) {
            const allow: HookAnswer = {
              kind: 'output',
              output: { decision: 'allow' },
              latencyMs: 1,
              queuedMs: 0,
            };
            const result = foldAnswers(def, input({ event, toolName: 'Bash' }) as never, [
              [{ id: 'first', type, scope: 'user', onError: 'skip' }, allow],
              [{ id: 'refused', type, scope: 'project', onError }, notRunAnswer(hookError(code, 'refused'))],
            ]);
            expect(result.hooks[1]).toMatchObject({ outcome: 'not-run', error: { code } });
            if (canDeny) {
              expect(result.decision).toBe('deny');
              expect(result.decidedBy).toBe('refused');
            } else {
              // An observer event: the refusal changes nothing; onError "deny" keeps its own meaning.
              if (onError === 'deny') expect(result.decision).toBe('deny');
              else expect(result.decision).not.toBe('deny');
            }
          }
        }
      },
    );
  });

  it('a failure of a hook that ran still follows its onError (only refusals deny)', () => {
    const def = catalogue.get('BeforeTool')!;
    const failed: HookAnswer = {
      kind: 'failure',
      error: hookError('nonzero_exit', 'exit 1'),
      latencyMs: 1,
      queuedMs: 0,
    };
    const result = foldAnswers(def, input() as never, [
      [{ id: 'h', type: 'command', scope: 'user', onError: 'skip' }, failed],
    ]);
    expect(result.decision).toBe('passthrough');
  });

  for (const [tenant, event] of [
    ['busy', 'BeforeTool'],
    ['other.tenant-2', 'ApprovalRequest'],
  ] as const) {
    it(`past ${tenant}'s maxQueued on ${event}, a hook with onError "skip" denies (never passthrough)`, async () => {
      const held = waitingPair(tempDir(), {});
      const config = {
        limits: { maxConcurrentCommands: 1 },
        tenants: {
          [tenant]: {
            limits: { maxQueued: 1 },
            hooks: { [event]: [{ hooks: [{ name: 'held', ...held.hook, onError: 'skip' }] }] },
          },
        },
      };
      try {
        await withExecutor({ config }, async (hw) => {
          const ev = input({ toolName: 'Bash', toolInput: { command: 'rm -rf /' } });
          const first = hw.dispatch(event, ev, { tenant });
          await held.lines.next();
          const second = hw.dispatch(event, ev, { tenant });
          await queued(hw, tenant, 1);
          const third = await hw.dispatch(event, ev, { tenant });
          expect(third.hooks[0]).toMatchObject({ outcome: 'not-run', error: { code: 'queue_full' } });
          expect(third.decision).toBe('deny');
          expect(third.reason).toMatch(/not run \(queue_full\)/);
          held.feed.send();
          await held.lines.next();
          held.feed.send();
          expect((await first).decision).toBe('passthrough');
          expect((await second).decision).toBe('passthrough');
        });
      } finally {
        held.lines.close();
        held.feed.close();
      }
    });
  }

  it('a hook still queued when the executor closes (pool_closed) denies', async () => {
    const held = waitingPair(tempDir(), {});
    const config = {
      limits: { maxConcurrentCommands: 1 },
      hooks: { BeforeTool: [{ hooks: [{ name: 'held', ...held.hook, onError: 'skip' }] }] },
    };
    try {
      await withExecutor({ config }, async (hw) => {
        const first = hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
        await held.lines.next();
        const second = hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
        await queued(hw, '', 1);
        const closing = hw.close();
        const refused = await second;
        expect(refused.hooks[0]).toMatchObject({ outcome: 'not-run', error: { code: 'pool_closed' } });
        expect(refused.decision).toBe('deny');
        await first;
        await closing;
      });
    } finally {
      held.lines.close();
      held.feed.close();
    }
  });
});
