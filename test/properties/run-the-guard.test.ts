// Trust invariant 3, as a property: a hook runs exactly when its matcher and `if` filters accept the
// call by the documented rules (JavaScript's RegExp deciding regexes, so a matcher never silently
// turns into exact names), and when one of them cannot be evaluated it counts as a match: the hook
// runs; in a policy file it fails the policy closed (deny-capable events deny); register() refuses it.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HookwardenError } from '../../src/contract/hookwarden-error.js';
import { tempDir } from '../helpers/fixture.js';
import type { CaseModel } from './case-arb.js';
import { caseArb, DEFAULT_GEN, dispatchInput, sessionIds } from './case-arb.js';
import { EVENTS, type EventName } from './gen/events.js';
import { HttpHooks } from './http-hooks.js';
import { expectedRun, policyUnevaluable } from './oracles.js';
import { writePackLibrary } from './packs.js';
import { Rig } from './rig.js';
import { checkProperty, propertyRun } from './tier.js';

let rig: Rig;

beforeAll(async () => {
  const http = await HttpHooks.start();
  rig = new Rig({ packs: await writePackLibrary(tempDir('hw-prop-packs-')), http });
});

afterAll(async () => {
  await rig?.close();
});

async function check(c: CaseModel): Promise<void> {
  const run = await rig.prepare(c.config);
  try {
    const refused = run.registerTrusted(c.config);
    for (const err of refused) expect(err instanceof HookwardenError && err.code).toBe('invalid_options');
    const ids = sessionIds();
    const event = c.config.event;
    const broken = policyUnevaluable(c.config);
    for (const d of c.dispatches) {
      const input = dispatchInput(d, ids);
      const { result, error } = await run.dispatch(event, input);
      if (error !== undefined) throw error;
      if (broken && EVENTS[event].canDeny) {
        expect(result, 'a policy file with an unevaluable matcher or filter fails closed').toMatchObject({
          decision: 'deny',
          decidedBy: 'policy',
        });
        continue;
      }
      const ran = new Set(result!.hooks.map((h) => h.id));
      const files = [...(broken ? [] : c.config.policy), ...c.config.user, ...c.config.project];
      const groups = [...c.config.trusted, ...files.flatMap((f) => f.groups)];
      for (const g of groups)
        for (const h of g.hooks) {
          const want = expectedRun(event, g, h, input);
          if (want === undefined) continue;
          if (want && h.kind === 'trusted' && refused.length > 0) continue;
          if (ran.has(h.key) !== want)
            throw new Error(
              `${h.key} (${h.kind}, matcher ${JSON.stringify(g.matcher.text)}, if ${JSON.stringify([g.if, h.if])}) ${want ? 'did not run' : 'ran'} on ${JSON.stringify(input).slice(0, 300)}; records: ${JSON.stringify(result!.hooks.map((r) => [r.id, r.outcome]))}; warnings: ${run.diagnostics
                .map((x) => x.message)
                .join(' | ')
                .slice(0, 600)}`,
            );
        }
    }
  } finally {
    await run.finish();
  }
}

const events = fc.constantFrom<EventName>(
  'BeforeTool',
  'BeforeTool',
  'ApprovalRequest',
  'AfterTool',
  'SessionStart',
  'Gate',
  'BeforeTurn',
);
const arb = caseArb(
  {
    ...DEFAULT_GEN,
    gentle: true,
    uniqueNames: true,
    rewrites: false,
    fails: false,
    unevaluable: 'all',
    hostile: false,
    errors: false,
    limits: false,
    packs: [],
    once: false,
    kinds: { js: 12, command: 1, http: 1, wasm: 1 },
  },
  { events, input: { largeWeight: 2 }, maxDispatches: 2 },
);
const run = propertyRun('invariant 3 (when in doubt, run the guard)', 500, 20);

it('a hook runs exactly when its matcher and filters accept the call, and whenever one cannot be evaluated', {
  timeout: run.timeoutMs,
}, async () => {
  await checkProperty('invariant 3', run, arb, check);
});
