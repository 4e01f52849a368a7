// The two tiers of the property tests (docs/development.md "Properties"). `npm test` runs each
// property on its default number of cases, with a fresh seed printed at the start; `npm run fuzz`
// sets HOOKWARDEN_PROPERTY_RUNS (10⁵ by default) and HOOKWARDEN_PROPERTY_SEED (`--runs`, `--seed`),
// HOOKWARDEN_PROPERTY_PATH replays one shrunk counterexample (fast-check's `path`), and
// HOOKWARDEN_PROPERTY_MINUTES / HOOKWARDEN_PROPERTY_DEADLINE (`--minutes`, `--until`) stop a
// property early, reporting how many cases passed (never as a failure). A fuzz run prints its
// progress every 1 000 cases.
import fc from 'fast-check';

export interface PropertyRun {
  readonly seed: number;
  readonly numRuns: number;
  /** The test's timeout: generous, scaled with the number of cases (a hang still fails). */
  readonly timeoutMs: number;
  readonly fuzz: boolean;
}

function envInt(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name}: expected an integer, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * The run of one property: `defaultRuns` cases in `npm test`, or what the fuzz tier asks for
 * (`fuzzRunsVariable`, else HOOKWARDEN_PROPERTY_RUNS).
 * `msPerCase` bounds the test's timeout (ten times the expected cost, plus a minute).
 */
export function propertyRun(
  name: string,
  defaultRuns: number,
  msPerCase: number,
  fuzzRunsVariable = 'HOOKWARDEN_PROPERTY_RUNS',
): PropertyRun {
  const fuzzRuns = envInt(fuzzRunsVariable) ?? envInt('HOOKWARDEN_PROPERTY_RUNS');
  const seed = envInt('HOOKWARDEN_PROPERTY_SEED') ?? (Date.now() ^ (Math.random() * 0x100000000)) | 0;
  const numRuns = fuzzRuns ?? defaultRuns;
  const run = { seed, numRuns, timeoutMs: 60_000 + numRuns * msPerCase * 10, fuzz: fuzzRuns !== undefined };
  process.stdout.write(`property ${name}: seed ${seed}, ${numRuns} cases\n`);
  return run;
}

/**
 * Checks an async property and fails with fast-check's report (seed, path, the shrunk
 * counterexample) when it does not hold.
 */
export async function checkProperty<T>(
  name: string,
  run: PropertyRun,
  arb: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
): Promise<void> {
  const path = process.env.HOOKWARDEN_PROPERTY_PATH;
  const started = Date.now();
  const limit = timeLimitMs(started);
  let cases = 0;
  const counted = async (value: T) => {
    await predicate(value);
    if (++cases % 1000 === 0 && run.fuzz)
      process.stdout.write(
        `property ${name}: ${cases} cases passed so far, ${((Date.now() - started) / 1000).toFixed(0)} s (seed ${run.seed})\n`,
      );
  };
  const details = await fc.check(fc.asyncProperty(arb, counted), {
    seed: run.seed,
    numRuns: run.numRuns,
    ...(path !== undefined && path !== '' ? { path } : {}),
    ...(limit === undefined ? {} : { interruptAfterTimeLimit: limit, markInterruptAsFailure: false }),
    // Measuring how many cases find a failure (docs/development.md, deliberate breaks): no shrinking.
    ...(process.env.HOOKWARDEN_PROPERTY_NO_SHRINK === '1' ? { endOnFailure: true } : {}),
    verbose: fc.VerbosityLevel.None,
  });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  // The time limit ran out before the first case (a later property of a file): nothing failed.
  if (details.interrupted && details.numRuns === 0 && details.counterexample === null) {
    process.stdout.write(`property ${name}: no case run before the time limit (seed ${run.seed})\n`);
    return;
  }
  if (details.failed) {
    // Printed at once too: vitest reports a failure only when the whole run ends, hours later in a fuzz run.
    const summary = `property ${name} failed at case ${details.numRuns} (seed ${details.seed}): replay with HOOKWARDEN_PROPERTY_SEED=${details.seed} HOOKWARDEN_PROPERTY_PATH=${details.counterexamplePath}`;
    process.stdout.write(`${summary}\n`);
    throw new Error(
      `property ${name} failed at case ${details.numRuns} (${details.numShrinks} shrinks, ${secs} s): ${fc.defaultReportMessage(details)}\n` +
        `error: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}\n` +
        `replay: HOOKWARDEN_PROPERTY_SEED=${details.seed} HOOKWARDEN_PROPERTY_PATH=${details.counterexamplePath}`,
    );
  }
  const stopped = details.interrupted ? `, stopped by the time limit before ${run.numRuns}` : '';
  process.stdout.write(
    `property ${name}: ${details.numRuns} cases passed in ${secs} s (seed ${run.seed})${stopped}, 0 violations\n`,
  );
}

/** How long a property may run: `--minutes`, and never past `--until` (ms since the epoch). */
function timeLimitMs(now: number): number | undefined {
  const minutes = envInt('HOOKWARDEN_PROPERTY_MINUTES');
  const deadline = envInt('HOOKWARDEN_PROPERTY_DEADLINE');
  const limits = [
    ...(minutes === undefined ? [] : [minutes * 60_000]),
    ...(deadline === undefined ? [] : [Math.max(1_000, deadline - now)]),
  ];
  return limits.length === 0 ? undefined : Math.min(...limits);
}
