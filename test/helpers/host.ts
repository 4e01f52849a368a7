// One dispatch in a host process of its own (test/fixtures/hosts/dispatch-once.mjs, the built
// executor), whose own parent leaked fd 250 to it (bash does not set close-on-exec on `exec 250<`):
// what a hook, or the machinery that starts it, could inherit from hookwarden's process.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DispatchResult } from '../../src/index.js';

const HOST = fileURLToPath(new URL('../fixtures/hosts/dispatch-once.mjs', import.meta.url));

export interface HostRun {
  result: DispatchResult;
  /** The descriptors a plain child of the host inherits (fd 250 among them). */
  plainFds: string[];
  hostPid: number;
}

/**
 * Starts the host: `pid` at once, `done` when its dispatch ended. `options`: { config, root, event,
 * input, limits? }; `env`: the host's environment.
 */
export function startLeakyHost(
  options: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): { pid: number; done: Promise<HostRun> } {
  const host = spawn(
    '/bin/bash',
    ['-c', 'exec 250</dev/null; exec "$0" "$@"', process.execPath, HOST, JSON.stringify(options)],
    { stdio: ['ignore', 'pipe', 'inherit'], env },
  );
  let out = '';
  host.stdout.on('data', (d) => {
    out += d;
  });
  const done = new Promise<HostRun>((resolve, reject) => {
    host.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the host exited with ${code}: ${out}`));
      const { result, plainFds } = JSON.parse(out) as { result: DispatchResult; plainFds: string[] };
      resolve({ result, plainFds, hostPid: host.pid! });
    });
  });
  return { pid: host.pid!, done };
}

/** `options`: { config, root, event, input, limits? }; `env`: the host's environment. */
export function dispatchInLeakyHost(
  options: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<HostRun> {
  return startLeakyHost(options, env).done;
}
