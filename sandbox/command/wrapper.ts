// The Node spawn path's rlimit wrappers (node-launcher.ts): hookwarden's exec helper hw-exec (built
// from sandbox/native/hw-exec.c: rlimits, no_new_privs, a parent-death SIGKILL, descriptors above 2
// closed) or, where it was not built, prlimit(1). Both exec the program in place: it keeps the pid
// and process group that hookwarden kills.
//
// The wrapper is started with an empty environment (docs/security.md, invariant 5); the program's variables
// reach it without passing through the wrapper's environment: hw-exec reads them from fd 3, and the prlimit
// fallback hands them to env(1) as arguments (visible in that process's /proc/<pid>/cmdline for the
// moment between its exec and the hook's).
import { readFileSync } from 'node:fs';
import type { LaunchSpec } from './launch.js';
import { executable, findNativeHelper } from './native-helper.js';

export type Wrapper =
  | { readonly kind: 'hw-exec'; readonly path: string }
  | {
      readonly kind: 'prlimit';
      readonly path: string;
      /** env(1), which sets the program's variables for the prlimit fallback. */
      readonly env: string;
    };

const PRLIMITS = ['/usr/bin/prlimit', '/bin/prlimit', '/usr/local/bin/prlimit'];
const ENVS = ['/usr/bin/env', '/bin/env'];

const cache = new Map<string, Wrapper | null>();

/**
 * The rlimit wrapper to use: the helper when it was built, else prlimit(1); null when neither exists.
 * `prefer` picks one explicitly (tests run the runner under both).
 */
export function findWrapper(prefer: 'auto' | Wrapper['kind'] = 'auto'): Wrapper | null {
  const hit = cache.get(prefer);
  if (hit !== undefined) return hit;
  const helper = prefer === 'prlimit' ? undefined : findNativeHelper('hw-exec');
  const prlimit = prefer === 'hw-exec' ? undefined : PRLIMITS.find(executable);
  const env = ENVS.find(executable);
  const found: Wrapper | null =
    helper !== undefined
      ? { kind: 'hw-exec', path: helper }
      : prlimit !== undefined && env !== undefined
        ? { kind: 'prlimit', path: prlimit, env }
        : null;
  cache.set(prefer, found);
  return found;
}

/** NUL-terminated NAME=VALUE records: hw-exec's fd 3 protocol. */
function envRecords(env: Readonly<Record<string, string>>): Buffer {
  return Buffer.from(
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}\0`)
      .join(''),
  );
}

/** The whole argv (the wrapper, then the program) and the child's fd 3, for `spec`. */
export function wrappedLaunch(
  spec: LaunchSpec,
  wrapper: Wrapper,
): { argv: string[]; fd3: Buffer | undefined } {
  const l = spec.limits;
  if (wrapper.kind === 'hw-exec') {
    const as = l.addressSpaceBytes === undefined ? '-' : String(l.addressSpaceBytes);
    // fd 3: `env` the program's environment, `pass` the program's own (bubblewrap's --args), `-` none.
    const mode = spec.env !== undefined ? 'env' : spec.fd3 !== undefined ? 'pass' : '-';
    const prefix = [
      wrapper.path,
      String(l.cpuSeconds),
      String(l.openFiles),
      String(l.fileSizeBytes),
      as,
      mode,
      '--',
    ];
    return { argv: [...prefix, ...spec.argv], fd3: spec.env !== undefined ? envRecords(spec.env) : spec.fd3 };
  }
  const hard = hardLimits();
  const at = (v: number, max: number | undefined) => (max !== undefined && v > max ? max : v);
  const limits = [
    `--cpu=${at(l.cpuSeconds, hard.cpu)}`,
    `--nofile=${at(l.openFiles, hard.nofile)}`,
    `--fsize=${at(l.fileSizeBytes, hard.fsize)}`,
  ];
  if (l.addressSpaceBytes !== undefined) limits.push(`--as=${at(l.addressSpaceBytes, hard.as)}`);
  if (spec.env === undefined) return { argv: [wrapper.path, ...limits, '--', ...spec.argv], fd3: spec.fd3 };
  // env(1) takes every leading NAME=VALUE as an assignment: a program whose name contains `=` is
  // started through a shell that execs its arguments as they are.
  const program = spec.argv[0]?.includes('=')
    ? ['/bin/sh', '-c', 'exec "$@"', 'sh', ...spec.argv]
    : spec.argv;
  const assignments = Object.entries(spec.env).map(([k, v]) => `${k}=${v}`);
  return {
    argv: [wrapper.path, ...limits, '--', wrapper.env, '-i', '--', ...assignments, ...program],
    fd3: spec.fd3,
  };
}

let hard: { cpu?: number; nofile?: number; fsize?: number; as?: number } | undefined;

/**
 * This process's hard limits (what prlimit(1) can set at most, from /proc/self/limits): a lowered
 * `ulimit -n` must not fail every hook. Read once; undefined where unlimited or unreadable.
 */
function hardLimits(): { cpu?: number; nofile?: number; fsize?: number; as?: number } {
  if (hard !== undefined) return hard;
  const found: Record<string, number> = {};
  try {
    const rows: [string, string][] = [
      ['cpu', 'Max cpu time'],
      ['nofile', 'Max open files'],
      ['fsize', 'Max file size'],
      ['as', 'Max address space'],
    ];
    const text = readFileSync('/proc/self/limits', 'utf8');
    for (const [key, label] of rows) {
      const m = new RegExp(`^${label}\\s+\\S+\\s+(\\d+)`, 'm').exec(text);
      if (m !== null) found[key] = Number(m[1]);
    }
  } catch {}
  hard = found;
  return hard;
}
