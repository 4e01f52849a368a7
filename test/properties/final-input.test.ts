// Trust invariant 2, as a property: a verdict covers the input it was given on. For every allow or
// passthrough of a deny-capable event, every trusted and policy hook that matches the final input
// (the caller's input with the verdict's rewrite applied) says it saw that input — by the digest it
// computed itself on what it received, or because its own rewrite produced it — and the hook that
// allowed saw it too. Rewrites come from every scope and in every vocabulary (mutatedToolInput,
// Claude Code's updatedInput, FreeCode's modifiedInput).
import fc from 'fast-check';
import { afterAll, beforeAll, it } from 'vitest';
import type { DispatchResult } from '../../src/contract/result.js';
import { tempDir } from '../helpers/fixture.js';
import { type CaseModel, caseArb, dispatchInput, sessionIds } from './case-arb.js';
import type { GroupModel, HookModel } from './gen/config.js';
import { digestOf, seenValue } from './gen/digest.js';
import type { EventName } from './gen/events.js';
import { HttpHooks } from './http-hooks.js';
import type { Seen } from './observe.js';
import { expectedRun } from './oracles.js';
import { PACK_HOOKS, writePackLibrary } from './packs.js';
import { Rig } from './rig.js';
import { checkProperty, propertyRun } from './tier.js';

let rig: Rig;

beforeAll(async () => {
  rig = new Rig({ packs: await writePackLibrary(tempDir('hw-prop-packs-')), http: await HttpHooks.start() });
});

afterAll(async () => {
  await rig?.close();
});

/** The caller's input with the verdict's rewrites applied: what the verdict covers. */
function finalInput(input: Record<string, unknown>, r: DispatchResult): Record<string, unknown> {
  return {
    ...input,
    ...(r.mutatedToolInput === undefined ? {} : { toolInput: r.mutatedToolInput }),
    ...(r.mutatedPrompt === undefined ? {} : { prompt: r.mutatedPrompt }),
    ...(r.mutatedRequest === undefined ? {} : { request: r.mutatedRequest }),
  };
}

/** The guards in force: trusted hooks, policy files' hooks (hooks and policyHooks), policy packs. */
function guards(c: CaseModel): { group: GroupModel; hook: HookModel; onError: 'skip' | 'deny' }[] {
  const out: { group: GroupModel; hook: HookModel; onError: 'skip' | 'deny' }[] = [];
  const effective = (h: HookModel, fallback: 'skip' | 'deny') =>
    h.onError === 'skip' || h.onError === 'continue' ? 'skip' : h.onError === undefined ? fallback : 'deny';
  for (const group of c.config.trusted)
    for (const hook of group.hooks) out.push({ group, hook, onError: effective(hook, 'skip') });
  for (const f of c.config.policy) {
    for (const group of f.groups)
      for (const hook of group.hooks) out.push({ group, hook, onError: effective(hook, 'deny') });
    if (c.config.event === 'BeforeTool')
      for (const name of f.packs)
        out.push({
          group: { matcher: { kind: 'all', text: undefined }, if: undefined, hooks: [] },
          hook: PACK_HOOKS[name]!,
          onError: 'deny',
        });
  }
  return out;
}

const saw = (seen: Seen, key: string, digest: string) =>
  seen.get(key)?.seen.includes(digest) === true || seen.get(key)?.made.includes(digest) === true;

async function check(c: CaseModel): Promise<void> {
  const run = await rig.prepare(c.config);
  try {
    run.registerTrusted(c.config);
    const ids = sessionIds();
    /** once hooks already run in a session: they are done for it. */
    const done = new Set<string>();
    for (const d of c.dispatches) {
      const input = dispatchInput(d, ids);
      const { result, error, seen } = await run.dispatch(c.config.event, input);
      if (error !== undefined) continue; // invariant 4's business: a typed rejection, no verdict
      const r = result!;
      const final = finalInput(input, r);
      const digest = digestOf(seenValue(final));
      const why = () =>
        `on ${JSON.stringify(input).slice(0, 400)}\nfinal ${JSON.stringify(seenValue(final)).slice(0, 300)}\nresult ${r.decision} by ${r.decidedBy}; records ${JSON.stringify(r.hooks.map((h) => [h.id, h.scope, h.outcome, h.error?.code, h.recheck]))}`;
      if (r.decision === 'allow' || r.decision === 'passthrough') {
        for (const { group, hook, onError } of guards(c)) {
          if (hook.async || (hook.once && done.has(`${d.session}/${hook.key}`))) continue;
          if (expectedRun(c.config.event, group, hook, final) !== true) continue;
          // A guard that failed (or was past a limit) under onError "skip" fails open by its author's choice.
          const failed = r.hooks.some((h) => h.id === hook.key && h.error !== undefined);
          if (failed && onError === 'skip') continue;
          if (!saw(seen, hook.key, digest))
            throw new Error(
              `${r.decision}: the guard ${hook.key} (${hook.kind}) never saw the final input ${why()}`,
            );
        }
      }
      if (r.decision === 'allow') {
        const decider = r.hooks.find((h) => h.id === r.decidedBy && h.outcome === 'allow');
        const key =
          decider?.logs?.map((l) => /^saw (\S+) /.exec(l)?.[1]).find((k) => k !== undefined) ?? r.decidedBy!;
        if (seen.has(key) && !saw(seen, key, digest))
          throw new Error(`allow by ${key}, which never saw the final input ${why()}`);
      }
      for (const g of guards(c))
        if (g.hook.once && seen.has(g.hook.key)) done.add(`${d.session}/${g.hook.key}`);
    }
  } finally {
    await run.finish();
  }
}

const events = fc.oneof(
  { weight: 6, arbitrary: fc.constant<EventName>('BeforeTool') },
  {
    weight: 1,
    arbitrary: fc.constantFrom<EventName>(
      'ApprovalRequest',
      'BeforeTurn',
      'BeforeModel',
      'Gate',
      'PreSkillShellCommand',
    ),
  },
);
const arb = caseArb(undefined, { events, maxDispatches: 3 });
const run = propertyRun('invariant 2 (a verdict covers the input it was given on)', 500, 20);

it('every allow and passthrough was seen, on its final input, by every guard that matches it', {
  timeout: run.timeoutMs,
}, async () => {
  await checkProperty('invariant 2', run, arb, check);
});
