// Runs the real `hookwarden` binary (from the built checkout) and captures what it prints.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/hookwarden', import.meta.url));
/** hookwarden-client (npm run build compiles it): the hook command `claude-code install` writes. */
export const CLIENT = fileURLToPath(new URL('../../dist/native/hookwarden-client', import.meta.url));
if (!existsSync(fileURLToPath(new URL('../../dist/cli/bundle/main.js', import.meta.url)))) {
  throw new Error('dist/ is missing: run `npm run build` (npm test does it) before the CLI tests');
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Written to stdin (text or bytes), which is then closed. Default: an empty pipe, closed at once. */
  stdin?: string | Uint8Array;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Options for node itself, before the binary (e.g. `--import` a tracer). */
  nodeArgs?: string[];
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return runProgram(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], options);
}

/** Runs any program to its end (stdin written and closed, as for runCli) and captures its output. */
export function runProgram(
  command: string,
  args: string[],
  options: Omit<CliOptions, 'nodeArgs'> = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? process.cwd(),
      env: options.env ?? process.env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A program that exits without reading its input (an early answer) is no error of the test's.
    child.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') reject(err);
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** A running CLI process whose output can be awaited piece by piece (signal tests). */
export interface LiveCli {
  readonly child: ChildProcess;
  /** Resolves once stderr contains `text` (rejects if the process ends first). */
  stderrIncludes(text: string): Promise<void>;
  /** Resolves once stdout contains `text` (rejects if the process ends first). */
  stdoutIncludes(text: string): Promise<void>;
  /** Resolves when the process has ended, with everything it printed. */
  readonly done: Promise<CliResult & { signal: NodeJS.Signals | null }>;
}

/**
 * Starts the CLI and returns at once. stdin is /dev/null unless `stdin: 'pipe'` (then it is left
 * open: the caller decides when, or whether, to close it).
 */
export function startCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: 'ignore' | 'pipe' } = {},
): LiveCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: {
    text: string;
    out: 'stdout' | 'stderr';
    resolve: () => void;
    reject: (e: Error) => void;
  }[] = [];
  const check = () => {
    for (const w of waiters.splice(0)) {
      if ((w.out === 'stdout' ? stdout : stderr).includes(w.text)) w.resolve();
      else waiters.push(w);
    }
  };
  child.stdout?.on('data', (d) => {
    stdout += d;
    check();
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
    check();
  });
  const done = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      for (const w of waiters.splice(0))
        w.reject(new Error(`the CLI ended (${code ?? signal}) before printing "${w.text}": ${stderr}`));
      resolve({ code, signal, stdout, stderr });
    });
  });
  return {
    child,
    done,
    stderrIncludes: (text) =>
      new Promise((resolve, reject) => {
        waiters.push({ text, out: 'stderr', resolve, reject });
        check();
      }),
    stdoutIncludes: (text) =>
      new Promise((resolve, reject) => {
        waiters.push({ text, out: 'stdout', resolve, reject });
        check();
      }),
  };
}
