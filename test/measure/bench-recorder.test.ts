import { describe, expect, it } from 'vitest';
import type { DispatchResult } from '../../src/index.js';
import { BenchRecorder } from '../../src/measure/bench-recorder.js';

describe('BenchRecorder', () => {
  it('keeps hook ids from config files as own keys, even "__proto__"', () => {
    const rec = new BenchRecorder();
    const result: DispatchResult = {
      event: 'BeforeTool',
      decision: 'allow',
      hooks: [
        { id: '__proto__', type: 'js', scope: 'project', outcome: 'allow', latencyMs: 0.2, queuedMs: 0 },
        { id: 'constructor', type: 'command', scope: 'project', outcome: 'allow', latencyMs: 1, queuedMs: 0 },
      ],
    };
    rec.recordDispatch(result, 1.5, undefined);
    const s = rec.summarize(10);
    expect(Object.keys(s.perHook)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(s.perHook)).toMatch(/^\{"__proto__":\{"type":"js"/);
    expect(Object.keys(s.ratios.perHook)).toEqual(['__proto__', 'constructor']);
    expect(s.throughputPerSec).toBe(100);
  });
});
