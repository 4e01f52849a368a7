// The hostile config and input corpus (test/fixtures/hostile-config/): attempts to switch a guard
// off from a lower scope, by a rewrite, or with crafted input. Each case runs with the policy hooks
// in `process` and in `namespace` isolation; every one must keep the guard's verdict (or be refused
// with a typed error). Namespace runs skip only without bubblewrap, and fail instead when
// HOOKWARDEN_REQUIRE_NAMESPACE=1 (as in CI).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { namespaceSupport } from '../../sandbox/command/namespace-profile.js';
import { HookwardenError } from '../../src/index.js';
import { input as baseInput, tempDir, withExecutor, writeConfig, writeFile } from '../helpers/fixture.js';

const DIR = fileURLToPath(new URL('../fixtures/hostile-config/', import.meta.url));
const ns = namespaceSupport();
const required = process.env.HOOKWARDEN_REQUIRE_NAMESPACE === '1';
const MODES = (['process', 'namespace'] as const).filter((m) => m === 'process' || ns.ok || required);

interface Case {
  description: string;
  policy?: unknown;
  policyText?: string;
  project?: unknown;
  projectText?: string;
  user?: unknown;
  files?: Record<string, string>;
  event: string;
  input?: Record<string, unknown>;
  deepInput?: { depth: number };
  expect: { decision?: string; reasonMatches?: string; error?: string };
}

const CASES = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Case] as const);

/** `$REPEAT(<text>,<n>)` inside a string repeats the text; a `$NEST:<depth>:<text>` string nests it. */
function expand(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.includes('$REPEAT('))
      return value.replace(/\$REPEAT\(([^,]*),(\d+)\)/g, (_, text: string, n: string) =>
        text.repeat(Number(n)),
      );
    const nest = /^\$NEST:(\d+):(.*)$/s.exec(value);
    if (nest !== null) {
      let v: unknown = nest[2];
      for (let i = 0; i < Number(nest[1]); i++) v = [v];
      return v;
    }
    return value;
  }
  if (Array.isArray(value)) return value.map(expand);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
  return value;
}

function inputOf(c: Case): Record<string, unknown> {
  if (c.deepInput !== undefined) {
    let command: unknown = 'rm -rf /';
    for (let i = 0; i < c.deepInput.depth; i++) command = [command];
    return baseInput({ toolName: 'Bash', toolInput: { command } });
  }
  return baseInput(expand(c.input ?? {}) as Record<string, unknown>);
}

describe.each(MODES)('hostile configs and inputs (policy hooks in %s isolation)', (mode) => {
  it.each(CASES)(
    '%s',
    async (_name, c) => {
      const dir = tempDir('hw-hostile-cfg-');
      for (const [name, content] of Object.entries(c.files ?? {}))
        writeFile(join(dir, name), content, name.endsWith('.sh') ? 0o755 : undefined);
      const file = (name: string, value: unknown, text: string | undefined) =>
        text !== undefined
          ? writeConfig(dir, name, text)
          : value !== undefined
            ? writeConfig(dir, name, value)
            : undefined;
      const policy = file('policy.json', c.policy, c.policyText);
      const project = file('project.json', c.project, c.projectText);
      const user = file('user.json', c.user, undefined);
      const config = [
        ...(user !== undefined ? [{ path: user, scope: 'user' as const }] : []),
        ...(project !== undefined ? [project] : []),
      ];
      const run = withExecutor(
        {
          config,
          policy: policy === undefined ? [] : [policy],
          root: dir,
          // The caller (trusted) puts the policy hooks in this mode; lower scopes can only tighten.
          limits: { minIsolation: { policy: mode } },
        },
        (hw) => hw.dispatch(c.event, inputOf(c)),
      );
      if (c.expect.error !== undefined) {
        const err = await run.then(
          (r) => r,
          (e: unknown) => e,
        );
        expect(err, c.description).toBeInstanceOf(HookwardenError);
        expect((err as HookwardenError).code).toBe(c.expect.error);
        expect((err as Error).message.split('\n')).toHaveLength(1);
        return;
      }
      const result = await run;
      expect(result.decision, `${c.description}: ${JSON.stringify(result).slice(0, 600)}`).toBe(
        c.expect.decision,
      );
      if (c.expect.reasonMatches !== undefined)
        expect(result.reason ?? '').toMatch(new RegExp(c.expect.reasonMatches));
    },
    60_000,
  );
});
