// What a one-shot CLI call loads. Start-up time is measured in bench/ (cli-startup); here, the
// behaviour behind it: a dispatch loads QuickJS and Piscina only when a JS hook runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';

const TRACER = fileURLToPath(new URL('../fixtures/trace-modules.mjs', import.meta.url));

/** Runs the CLI under the module tracer; returns its result and the modules it loaded. */
async function loaded(args: string[]) {
  const file = join(tempDir(), 'modules.txt');
  const r = await runCli(args, {
    nodeArgs: ['--import', TRACER],
    env: { ...process.env, HW_TRACE_MODULES: file },
  });
  const modules = readFileSync(file, 'utf8').split('\n');
  const has = (pattern: RegExp) => modules.some((m) => pattern.test(m));
  return {
    r,
    quickjs: has(/quickjs/),
    piscina: has(/[\\/]piscina[\\/]/),
    childProcess: modules.includes('node:child_process'),
    commander: has(/[\\/]commander[\\/]|run-[^/]*\.js$/),
  };
}

describe('hookwarden start-up', () => {
  const dir = tempDir();
  const input = writeConfig(dir, 'read.json', { toolName: 'Read' });
  const command = { name: 'guard', argv: ['/bin/true'] };
  const js = { name: 'js-guard', type: 'js', code: 'export default () => ({ decision: "allow" })' };
  const cfg = (name: string, hooks: unknown[], group = {}) =>
    writeConfig(dir, name, hooksOn('BeforeTool', hooks, group));

  it('a dispatch that no hook matches loads neither QuickJS nor Piscina', async () => {
    // JS and command hooks are configured, for another tool.
    const t = await loaded([
      'dispatch',
      'BeforeTool',
      '-c',
      cfg('bash.json', [command, js], { matcher: 'Bash' }),
      '-i',
      input,
    ]);
    expect([t.r.code, JSON.parse(t.r.stdout).decision]).toEqual([0, 'passthrough']);
    expect({ quickjs: t.quickjs, piscina: t.piscina }).toEqual({ quickjs: false, piscina: false });
  });

  it('a dispatch of command hooks loads neither QuickJS nor Piscina', async () => {
    const t = await loaded(['dispatch', 'BeforeTool', '-c', cfg('command.json', [command]), '-i', input]);
    expect(JSON.parse(t.r.stdout).hooks).toMatchObject([{ id: 'guard', outcome: 'proceed' }]);
    expect({ quickjs: t.quickjs, piscina: t.piscina }).toEqual({ quickjs: false, piscina: false });
  });

  it('a dispatch that runs a JS hook loads Piscina (the control case)', async () => {
    const t = await loaded(['dispatch', 'BeforeTool', '-c', cfg('js.json', [js]), '-i', input]);
    expect(JSON.parse(t.r.stdout)).toMatchObject({
      decision: 'allow',
      hooks: [{ id: 'js-guard', outcome: 'allow' }],
    });
    expect(t.piscina).toBe(true);
  });

  it('--version loads no command-line parser', async () => {
    const t = await loaded(['--version']);
    expect([t.r.code, t.commander, t.childProcess]).toEqual([0, false, false]);
  });
});
