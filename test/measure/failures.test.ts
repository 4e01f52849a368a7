// Hook failures counted per hook with how each resolved: a failure that lets the call go on is
// "failed open", and on an event that can deny that is a security failure, said first and in red.
import { describe, expect, it } from 'vitest';
import { formatBenchText } from '../../src/measure/format-text.js';
import { renderHtmlReport, runBench } from '../../src/measure/index.js';
import { input } from '../helpers/fixture.js';

const guard = (name: string, extra: object) => ({
  hooks: {
    BeforeTool: [
      {
        hooks: [{ type: 'js', name, code: 'export default () => { for (;;) {} }', timeoutMs: 30, ...extra }],
      },
    ],
    AfterTool: [{ hooks: [{ type: 'command', name: 'logger', command: 'exit 1' }] }],
  },
});

const tiny = { iterations: 4, warmup: 0, blocks: 2, baselineSamples: 2, onWarning: () => {} };

describe('failures per hook', () => {
  it('a guard that times out and fails open is a security failure: counted, warned first, red in text and page', async () => {
    const r = await runBench({
      ...tiny,
      config: guard('slow-guard', {}),
      event: 'PreToolUse',
      input: input({ toolName: 'Bash' }),
    });
    expect(r.perHook['slow-guard']!.failures).toEqual({
      timeouts: 4,
      otherFailures: 0,
      failedOpen: 4,
      denied: 0,
      securityFailures: 4,
    });
    expect(r.warnings[0]).toMatch(
      /^security: hook "slow-guard" failed open 4 times on an event that can deny \(timeout 4\)/,
    );
    expect(r.hooks[0]).toMatchObject({
      id: 'slow-guard',
      event: 'BeforeTool',
      onError: 'skip',
      canDeny: true,
    });
    const text = formatBenchText(r, { color: true });
    expect(text).toContain('\u001b[31;1mSECURITY: hook "slow-guard" failed open 4 times');
    expect(formatBenchText(r)).not.toContain('\u001b[');
    // The conditions of a real run, measured around its blocks, in words.
    expect(formatBenchText(r)).toMatch(
      /^while measured: the main thread waited for a CPU \d+% of the measured time, .*, load [\d.]+ → [\d.]+ per CPU$/m,
    );
    expect(formatBenchText(r)).toMatch(
      /failures per hook.*\n.*hook slow-guard\s+4\s+4\s+0\s+4\s+0\s+4 \(FAIL OPEN\)/,
    );
    const html = renderHtmlReport(r);
    expect(html).toContain('<div class="security">security: hook &quot;slow-guard&quot; failed open 4 times');
    expect(html).toContain('<td class="security">4 (FAIL OPEN)</td>');
  });

  it('a guard that fails closed denied each call: no security failure', async () => {
    const r = await runBench({
      ...tiny,
      config: guard('strict-guard', { onError: 'deny' }),
      event: 'PreToolUse',
      input: input({ toolName: 'Bash' }),
    });
    expect(r.perHook['strict-guard']!.failures).toMatchObject({
      timeouts: 4,
      failedOpen: 0,
      denied: 4,
      securityFailures: 0,
    });
    expect(r.decisions).toEqual({ deny: 4 });
    expect(r.warnings.some((w) => w.startsWith('security:'))).toBe(false);
  });

  it('a hook failing open where no deny is honoured (an observer) is counted, not a security failure', async () => {
    const r = await runBench({
      ...tiny,
      config: guard('g', {}),
      event: 'PostToolUse',
      input: input({ toolName: 'Bash' }),
    });
    expect(r.perHook.logger!.failures).toEqual({
      timeouts: 0,
      otherFailures: 4,
      failedOpen: 4,
      denied: 0,
      securityFailures: 0,
    });
    expect(r.warnings.some((w) => w.startsWith('security:'))).toBe(false);
  });
});
