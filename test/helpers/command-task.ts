// A command task for the subprocess runner's tests: `/bin/sh -c command` in the OS temp dir with a
// fresh scratch dir, a marker variable (HW_MARK) to find its processes by, and roomy limits.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import type { CommandTask } from '../../src/contract/command-task.js';
import { tempDir } from './fixture.js';

export function commandTask(program: CommandTask['program'], extra: Partial<CommandTask> = {}): CommandTask {
  return {
    program,
    cwd: tmpdir(),
    scratchDir: tempDir('hw-scratch-'),
    env: { HOOK_EVENT: 'BeforeTool', HW_MARK: randomUUID() },
    inheritEnv: [],
    stdin: '{}',
    deadlineMs: 10_000,
    killGraceMs: 200,
    maxOutputBytes: 1024 * 1024,
    rlimits: { cpuSeconds: 0, openFiles: 256, fileSizeBytes: 1024 * 1024, addressSpaceBytes: undefined },
    isolation: 'process',
    containment: 'prefer',
    writable: false,
    runAs: undefined,
    ...extra,
  };
}

export const sh = (command: string) => ({ kind: 'shell' as const, command });
