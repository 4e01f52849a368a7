// JS hook fixtures: the same source either inline (`code`) or as a file (`source`).
import { join } from 'node:path';
import { internalsOf } from '../../src/executor/internals.js';
import type { Executor } from '../../src/index.js';
import { tempDir, writeConfig, writeFile } from './fixture.js';

export type JsMode = 'inline' | 'file';

/** A config whose hooks (by event) are JS sources; files are written next to the config. */
export function jsConfig(
  mode: JsMode,
  hooks: Record<string, { name: string; code: string; [k: string]: unknown }[]>,
  extra: Record<string, unknown> = {},
): string {
  const dir = tempDir('hw-js-');
  const events: Record<string, unknown> = {};
  for (const [event, list] of Object.entries(hooks)) {
    events[event] = [
      {
        hooks: list.map(({ name, code, ...rest }) => {
          if (mode === 'inline') return { type: 'js', name, code, ...rest };
          writeFile(join(dir, 'hooks', `${name}.js`), code);
          return { type: 'js', name, source: `hooks/${name}.js`, ...rest };
        }),
      },
    ];
  }
  return writeConfig(dir, 'hooks.json', { ...extra, hooks: events });
}

export interface WorkerStats {
  threadId: number;
  modulesBuilt: number;
  tasksRun: number;
  heapBytes: number;
  ceilingBytes: number;
  liveRuntimes: number;
  liveContexts: number;
  images: number;
  imageBytes: number;
  imagesBuilt: number;
  memoryIsImage: boolean;
}

export function workerStats(executor: Executor): Promise<WorkerStats> {
  return internalsOf(executor).pool.js.stats() as Promise<WorkerStats>;
}
