// Hook environments for invariant 5: variables with random names and values (Unicode, spaces, `=`,
// quotes, new lines), each value carrying a token unique to the case so that it can be found in any
// process's environ or cmdline; and host variables a hook names in `inheritEnv`.
import fc from 'fast-check';
import { oddString } from './inputs.js';

/** Names hookwarden sets itself, or refuses: not what this property is about. */
const RESERVED = /^(HOME|TMPDIR|PATH|LANG|TZ|PWD|HOOK_.*|CLAUDE_.*|LD_.*|MALLOC_.*|HOOKWARDEN_.*)$/i;
const REFUSED = new Set([
  'GLIBC_TUNABLES',
  'GCONV_PATH',
  'GETCONF_DIR',
  'HOSTALIASES',
  'LOCALDOMAIN',
  'LOCPATH',
  'NIS_PATH',
  'NLSPATH',
  'RESOLV_HOST_CONF',
  'RES_OPTIONS',
  'TZDIR',
]);

const envName: fc.Arbitrary<string> = fc
  .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,24}$/)
  .filter((n) => !RESERVED.test(n) && !REFUSED.has(n.toUpperCase()));

/** Where a value's token goes: the test puts a token unique to the case and the variable there. */
export const TOKEN = '@TOKEN@';

/** A value around the token: what the machinery must never hold. */
const envValue = (token: string = TOKEN): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.oneof(oddString, fc.string({ maxLength: 20 }), fc.constantFrom(' = ', '"\'$`', '\n', 'é😀')),
      fc.integer({ min: 0, max: 3000 }),
    )
    .map(([odd, pad]) => `${token}${odd.replaceAll('\u0000', '')}${'v'.repeat(pad % 7 === 0 ? pad : 0)}`);

export interface EnvHook {
  readonly env: readonly (readonly [string, string])[];
  /** Host variables (set by the test) the hook asks for. */
  readonly inherit: readonly number[];
  readonly isolation: 'process' | 'contained' | 'namespace';
  readonly nobody: boolean;
}

/** 1–3 hooks, each with 1–5 variables whose values hold TOKEN. */
export function envHooksArb(hostVars: number): fc.Arbitrary<EnvHook[]> {
  const hook = () =>
    fc.record({
      env: fc
        .uniqueArray(envName, { minLength: 1, maxLength: 5, selector: (n) => n.toUpperCase() })
        .chain((names) => fc.tuple(...names.map((n) => envValue().map((value) => [n, value] as const)))),
      inherit: fc.subarray([...Array(hostVars).keys()]),
      isolation: fc.constantFrom('process' as const, 'contained' as const, 'namespace' as const),
      nobody: fc.boolean(),
    });
  return fc.integer({ min: 1, max: 3 }).chain((n) => fc.tuple(...[...Array(n).keys()].map(() => hook())));
}
