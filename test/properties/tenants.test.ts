// Trust invariant 6, tenants' part, as a property: a tenant's verdicts and records are the same
// whether or not other tenants dispatch beside it. The oracle is the tenant alone: its dispatches
// are made once by themselves, then again (in fresh sessions) interleaved with a second tenant's,
// an unknown tenant's and untenanted dispatches that share its session ids, hook names, once and
// async hooks, packs and scheduling limits; every result of the tenant must be the same (timings
// and async ids aside), and no record of another tenant's hooks may appear in it.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HookwardenError } from '../../src/contract/hookwarden-error.js';
import type { DispatchResult } from '../../src/contract/result.js';
import { tempDir } from '../helpers/fixture.js';
import { caseArb, DEFAULT_GEN, type DispatchModel, dispatchInput, sessionIds } from './case-arb.js';
import { eventInput } from './gen/events.js';
import { HttpHooks } from './http-hooks.js';
import { writePackLibrary } from './packs.js';
import { type CaseRun, Rig } from './rig.js';
import { checkProperty, propertyRun } from './tier.js';

let rig: Rig;
/** What the cases exercised: ta's hook records, other tenants' dispatches with records. */
const COVERED = { taRecords: 0, otherDispatches: 0 };

beforeAll(async () => {
  const http = await HttpHooks.start();
  rig = new Rig({ packs: await writePackLibrary(tempDir('hw-prop-packs-')), http });
});

afterAll(async () => {
  process.stdout.write(`invariant 6: covered ${JSON.stringify(COVERED)}\n`);
  await rig?.close();
});

/** What must not depend on who else dispatches: everything but timings, memory and async ids. */
function comparable(r: DispatchResult | undefined, error: unknown): unknown {
  if (r === undefined) return { error: error instanceof HookwardenError ? error.code : String(error) };
  const { hooks, ...rest } = r;
  return {
    ...rest,
    hooks: hooks.map(({ latencyMs, queuedMs, memoryBytes, asyncId, ...h }) => h),
  };
}

/** Another party's dispatch: the second tenant, an unknown tenant, or none. */
interface Other extends DispatchModel {
  readonly tenant: 'tb' | 'nobody-here' | undefined;
}

async function run(
  r: CaseRun,
  event: string,
  ds: readonly DispatchModel[],
  ids: readonly string[],
  tenant: string | undefined,
): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const d of ds) {
    const options = tenant === undefined ? {} : { tenant };
    // What hooks saw is in their records' logs: the command hooks' files are left where they are.
    const { result, error } = await r.dispatch(event, dispatchInput(d, ids), options, false);
    out.push(comparable(result, error));
  }
  return out;
}

async function check([c, others]: [Parameters<typeof caseCheck>[0], readonly Other[]]): Promise<void> {
  await caseCheck(c, others);
}

async function caseCheck(
  c: { config: import('./gen/config.js').ConfigModel; dispatches: readonly DispatchModel[] },
  others: readonly Other[],
): Promise<void> {
  const r = await rig.prepare(c.config);
  try {
    const event = c.config.event;
    const alone = await run(r, event, c.dispatches, sessionIds(), 'ta');
    // The same dispatches in fresh sessions, the other parties in the same sessions, all at once.
    const ids = sessionIds();
    const [beside] = await Promise.all([
      run(r, event, c.dispatches, ids, 'ta'),
      ...others.map((o) => run(r, event, [o], ids, o.tenant)),
    ]);
    // The hooks that ran, by the key each one logs (`saw <key> <digest>`), whatever its record's id.
    const keysOf = (x: unknown) => [...JSON.stringify(x).matchAll(/saw (\w+) /g)].map((m) => m[1]!);
    COVERED.otherDispatches += others.length;
    for (const a of alone as { hooks?: { scope: string }[] }[])
      COVERED.taRecords += (a.hooks ?? []).filter((h) => h.scope === 'user').length;
    for (const [i, got] of beside!.entries()) {
      // A hook that timed out in one run only (a loaded machine) is no tenant's doing.
      if (/"timeout"/.test(JSON.stringify(got)) !== /"timeout"/.test(JSON.stringify(alone[i]))) continue;
      if (JSON.stringify(got) !== JSON.stringify(alone[i]))
        throw new Error(
          `dispatch ${i} of tenant ta differs beside ${others.length} other dispatches:\nalone:  ${JSON.stringify(alone[i])}\nbeside: ${JSON.stringify(got)}`,
        );
      // tb's hooks (keys b…) never run in ta's dispatches.
      for (const k of keysOf(got)) expect(k, 'a hook of another tenant ran').not.toMatch(/^bd?\d+$/);
    }
  } finally {
    await r.finish();
  }
}

const gen = { ...DEFAULT_GEN, tenants: true, errors: false };
const arb = caseArb(gen, { maxDispatches: 3 }).chain((c) =>
  fc.tuple(
    fc.constant(c),
    fc.array(
      fc.record({
        input: eventInput(c.config.event, { largeWeight: 0 }),
        session: fc.integer({ min: 0, max: 1 }),
        tenant: fc.constantFrom<Other['tenant']>('tb', 'tb', 'tb', 'nobody-here', undefined),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  ),
);
const prop = propertyRun('invariant 6 (tenants apart)', 300, 40);

it("a tenant's verdicts and records are the same whether or not other tenants dispatch beside it", {
  timeout: prop.timeoutMs,
}, async () => {
  await checkProperty('invariant 6', prop, arb, check);
});
