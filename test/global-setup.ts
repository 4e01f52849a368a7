// After the whole suite: no process started as a hook may still be running.
import { settleHookProcesses } from './helpers/processes.js';

export default function setup() {
  return async () => {
    const left = await settleHookProcesses(5000);
    if (left.length > 0) {
      for (const p of left) process.kill(p.pid, 'SIGKILL');
      throw new Error(
        `hook processes left running after the test suite: ${left.map((p) => `${p.pid} ${p.cmdline}`).join('; ')}`,
      );
    }
  };
}
