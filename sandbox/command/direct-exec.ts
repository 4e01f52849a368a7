// A shell command that is one simple command, started without its shell (process mode). `bash -c
// /path/to/hook arg` does nothing but exec the program (the shell's one-command exec: the program
// keeps the shell's pid), after setting PWD, and for bash SHLVL and `_`; starting the shell costs a
// process image, its libraries and its locale files (~1 ms, the largest part of a routed
// `/bin/true` hook: bench/README.md). So when the command can only mean "exec this file with these
// words", the launcher execs the file itself with the environment the shell would have given it.
//
// Only when nothing the shell would do can differ: every word plain (no quote, `$`, glob, `~`,
// redirection, separator, comment, brace or assignment), the program named by a path (no builtin,
// function, alias or PATH search), a regular executable file that starts with `#!` or is an ELF
// image (no ENOEXEC fallback, which the shell handles its own way), an environment without the
// variables that make a shell do more at start (BASH_ENV, exported functions, SHELLOPTS…), a PWD
// the shell would keep, a SHLVL it would not warn about, and the hook running as hookwarden's own
// user. Anything else runs through the shell, as before. A file that changes between the check and
// the exec fails the way the shell fails (exit 126 or 127 with the reason on stderr: spawn-exec.c).
import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

/** The shells whose one-command `-c` this reproduces, and whether the shell is bash (SHLVL, `_`). */
const SHELLS: Readonly<Record<string, boolean>> = {
  '/bin/sh': false,
  '/usr/bin/sh': false,
  '/bin/dash': false,
  '/usr/bin/dash': false,
  '/bin/bash': true,
  '/usr/bin/bash': true,
  '/usr/local/bin/bash': true,
};

/** A word the shell passes on as it is. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
/** Variables that make a shell read a file, define functions or change options at start. */
const SHELL_STARTUP = /^(BASH.*|ENV|SHELLOPTS|POSIXLY_CORRECT|PS4|IFS)$/;
/** A SHLVL bash keeps as it is under one exec (it warns from 1000 on, and resets what is not a number). */
const SHLVL_KEPT = /^(0|[1-9][0-9]{0,2})$/;

/** The first bytes of a file the kernel executes itself (anything else: ENOEXEC, the shell's own way). */
function execImage(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(4);
    const n = readSync(fd, head, 0, 4, 0);
    return (
      (n >= 2 && head[0] === 0x23 && head[1] === 0x21) || (n === 4 && head.toString('latin1') === '\x7fELF')
    );
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Files checked, by path, with the identity they were checked at. */
const checked = new Map<string, { key: string; ok: boolean }>();

function runnable(path: string): boolean {
  let key: string;
  try {
    const st = statSync(path, { bigint: true });
    // Owner, group or other execute bit; the exec itself decides (as the shell's would).
    if (!st.isFile() || (st.mode & 0o111n) === 0n) return false;
    key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return false;
  }
  const hit = checked.get(path);
  if (hit !== undefined && hit.key === key) return hit.ok;
  const ok = execImage(path);
  if (checked.size > 256) checked.clear();
  checked.set(path, { key, ok });
  return ok;
}

/** The physical working directory, as getcwd() gives it to a shell with no PWD (one realpath(3), not a walk). */
function physical(cwd: string): string | undefined {
  try {
    return realpathSync.native(cwd);
  } catch {
    return undefined;
  }
}

/**
 * The program and environment a shell's `-c command` would exec, or undefined when the command
 * needs its shell. `argv` is the shell argv (`[shell, '-c', command]`).
 */
export function directExec(
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
  cwd: string,
): { argv: string[]; env: Record<string, string> } | undefined {
  if (argv.length !== 3 || argv[1] !== '-c') return undefined;
  const bash = SHELLS[argv[0]!];
  if (bash === undefined) return undefined;
  const words = argv[2]!.split(/[ \t]+/).filter((w) => w !== '');
  if (words.length === 0 || !words.every((w) => PLAIN_WORD.test(w))) return undefined;
  const program = words[0]!;
  if (!program.includes('/') || program.includes('=')) return undefined;
  if (Object.keys(env).some((name) => SHELL_STARTUP.test(name))) return undefined;
  if (!runnable(isAbsolute(program) ? program : resolve(cwd, program))) return undefined;
  const out: Record<string, string> = { ...env };
  if (out.PWD === undefined) {
    const pwd = physical(cwd);
    if (pwd === undefined) return undefined;
    out.PWD = pwd;
  } else if (out.PWD !== cwd) return undefined;
  if (bash) {
    if (out.SHLVL === undefined) out.SHLVL = '0';
    else if (!SHLVL_KEPT.test(out.SHLVL) || Number(out.SHLVL) >= 999) return undefined;
    out._ = program;
  }
  return { argv: words, env: out };
}
