// Every DispatchResult is made by one constructor (contract/result.ts), which writes the keys in the
// documented order whatever order its parts come in, leaves undefined fields out and copies lists.
import { describe, expect, it } from 'vitest';
import { dispatchResult } from '../../src/contract/result.js';

describe('dispatchResult', () => {
  it('orders keys as documented and leaves undefined fields out', () => {
    const hooks: never[] = [];
    const r = dispatchResult({
      hooks,
      warnings: ['w'],
      additionalContext: 'c',
      interrupted: true,
      decidedBy: undefined,
      reason: 'why',
      decision: 'deny',
      event: 'BeforeTool',
    });
    expect(Object.keys(r)).toEqual([
      'event',
      'decision',
      'reason',
      'interrupted',
      'additionalContext',
      'warnings',
      'hooks',
    ]);
    expect(r.hooks).not.toBe(hooks);
    expect(Object.keys(dispatchResult({ event: 'Stop', decision: 'passthrough' }))).toEqual([
      'event',
      'decision',
      'hooks',
    ]);
  });
});
