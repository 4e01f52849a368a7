// The property rig's command hook keeps each run's stdin in a file of its own, even when two runs
// share a pid and a clock reading. A contained or namespace hook's `$$` is the same small pid in
// every run: with a file named by time and pid alone, two runs in one nanosecond shared a file and
// one answered on the other's input (fuzz seed 20261203, invariant 6, case 99519).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../helpers/fixture.js';
import { COMMAND_SCRIPT } from './gen/render.js';

it('two runs with the same pid and the same clock reading keep two stdin files', () => {
  const dir = tempDir('hw-command-script-');
  const bin = join(dir, 'bin');
  const obs = join(dir, 'obs');
  mkdirSync(bin);
  mkdirSync(obs);
  // A clock that always reads the same nanosecond.
  writeFileSync(join(bin, 'date'), '#!/bin/sh\necho 1796221528485909032\n');
  chmodSync(join(bin, 'date'), 0o755);
  const env = {
    PATH: `${bin}:/usr/bin:/bin`,
    OBS: obs,
    HW_TOKEN: 'push',
    HW_HIT: 'hit',
    HW_HIT_EXIT: '0',
    HW_MISS: 'miss',
    HW_MISS_EXIT: '0',
  };
  // Each run in a PID namespace of its own, as a contained hook is: `$$` is 1 both times.
  const run = (input: string) =>
    spawnSync('unshare', ['--user', '--map-root-user', '--pid', '--fork', '/bin/sh', '-c', COMMAND_SCRIPT], {
      env,
      input,
      encoding: 'utf8',
    });
  const a = run('{"command":"git push"}');
  const b = run('{"command":"ls"}');
  expect([a.stdout, b.stdout]).toEqual(['hit', 'miss']);
  const files = readdirSync(obs).sort();
  expect(files).toHaveLength(2);
  expect(files.map((f) => readFileSync(join(obs, f), 'utf8')).sort()).toEqual([
    '{"command":"git push"}',
    '{"command":"ls"}',
  ]);
  // Still in the order written when the clock moves: the name starts with the clock reading.
  for (const f of files) expect(f).toMatch(/^1796221528485909032-/);
});
