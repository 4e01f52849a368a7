// Trust invariant 1, as a property: adding user, project and hostile files to a configuration never
// makes a verdict less strict than the policy and trusted hooks alone make it (the oracle dispatches
// them alone, on a rig that loads only the policy files), and the limits each hook ran under are the
// ones the trust order gives its scope (the oracle computes them from the files, docs/configuration.md).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HookwardenError } from '../../src/contract/hookwarden-error.js';
import { tempDir } from '../helpers/fixture.js';
import { type CaseModel, caseArb, dispatchInput, sessionIds } from './case-arb.js';
import { HttpHooks } from './http-hooks.js';
import { hookCallsProblem, STRICTNESS, scopeCaps } from './oracles.js';
import { writePackLibrary } from './packs.js';
import { Rig } from './rig.js';
import { checkProperty, propertyRun } from './tier.js';

let full: Rig;
let policyOnly: Rig;
let http: HttpHooks;

beforeAll(async () => {
  http = await HttpHooks.start();
  const packs = await writePackLibrary(tempDir('hw-prop-packs-'));
  full = new Rig({ packs, http });
  policyOnly = new Rig({ packs, http, lower: false });
});

afterAll(async () => {
  if (process.env.HW_PROP_DEBUG === '1') console.log((await import('./rig.js')).TIMES);
  await full?.close();
  await policyOnly?.close();
});

const codeOf = (err: unknown) => (err instanceof HookwardenError ? err.code : `untyped: ${String(err)}`);

async function check(c: CaseModel): Promise<void> {
  const a = await full.prepare(c.config);
  const b = await policyOnly.prepare(c.config);
  try {
    expect(a.registerTrusted(c.config).map(codeOf)).toEqual(b.registerTrusted(c.config).map(codeOf));
    const ids = sessionIds();
    const caps = scopeCaps(c.config);
    for (const d of c.dispatches) {
      const input = dispatchInput(d, ids);
      const withLower = await a.dispatch(c.config.event, input);
      const alone = await b.dispatch(c.config.event, input);
      if (alone.error !== undefined || withLower.error !== undefined) {
        expect(codeOf(withLower.error)).toBe(codeOf(alone.error));
        continue;
      }
      const got = withLower.result!;
      const floor = alone.result!;
      // A hook that timed out on one rig only (a loaded machine) makes the two verdicts incomparable.
      const timedOut = (r: typeof got) => r.hooks.some((h) => h.error?.code === 'timeout');
      if (timedOut(got) !== timedOut(floor)) continue;
      if (STRICTNESS[got.decision]! < STRICTNESS[floor.decision]!)
        throw new Error(
          `less strict than the policy alone: ${got.decision} (decidedBy ${got.decidedBy}) < ${floor.decision} (decidedBy ${floor.decidedBy})\nwith lower: ${JSON.stringify(got.hooks.map((h) => [h.id, h.scope, h.outcome, h.error?.code, h.recheck]))}\nalone: ${JSON.stringify(floor.hooks.map((h) => [h.id, h.scope, h.outcome, h.error?.code, h.recheck]))}`,
        );
      expect(withLower.seen.has('evil'), 'a lower file placed a hook at policy scope').toBe(false);
      const callsProblem = hookCallsProblem(got.hooks, caps);
      if (callsProblem !== undefined)
        throw new Error(
          `${callsProblem}\nrecords: ${JSON.stringify(got.hooks.map((h) => [h.id, h.scope, h.outcome, h.error?.code, h.recheck]))}`,
        );
      for (const r of got.hooks)
        if (
          r.type === 'command' &&
          r.containment !== undefined &&
          caps[r.scope as 'policy']!.minIsolation === 'namespace'
        )
          expect(r.containment, `${r.id} (${r.scope}) ran under a namespace floor`).toBe('namespace');
    }
    expect(http.denied, 'an http hook was sent to a URL no allow list admits').toEqual([]);
  } finally {
    await a.finish();
    await b.finish();
  }
}

const run = propertyRun('invariant 1 (a lower scope can only tighten)', 500, 30);

it('a lower scope can only tighten: verdicts at least as strict as the policy alone, limits by the trust order', {
  timeout: run.timeoutMs,
}, async () => {
  await checkProperty('invariant 1', run, caseArb(), check);
});
