// Real load for tests that need a busy machine: child processes that each burn a CPU until they are
// stopped (by their pid), ready once each has said so on stdout.
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

export interface Burners {
  readonly pids: readonly number[];
  /** Kills every burner and waits for each to be gone. */
  stop(): Promise<void>;
}

/** Enough burners to leave every CPU busy with more than one: 2 × CPUs + 1 (at most 33). */
const OVERLOAD = Math.min(33, 2 * availableParallelism() + 1);

/** Starts `count` CPU burners; resolves when every one of them is running its loop. */
export async function burnCpus(count = OVERLOAD): Promise<Burners> {
  const children: ChildProcess[] = [];
  const exited = new Map<ChildProcess, Promise<void>>();
  const stop = async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all(exited.values());
  };
  try {
    await Promise.all(
      Array.from({ length: count }, () => {
        const child = spawn(process.execPath, ['-e', "process.stdout.write('burning\\n'); for (;;) {}"], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        children.push(child);
        exited.set(child, new Promise((resolve) => child.once('exit', () => resolve())));
        return new Promise<void>((resolve, reject) => {
          child.stdout!.once('data', () => resolve());
          child.once('error', reject);
          child.once('exit', (code) => reject(new Error(`a CPU burner exited early (${code})`)));
        });
      }),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { pids: children.map((c) => c.pid!), stop };
}
