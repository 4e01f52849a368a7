// The daemon reads each config file once per load for its routing check and its no-hook scan
// (daemon-host.ts): after an edit and the reload it causes, its answers must follow the new file,
// never the file as it was read before. Variants: a file that ran nothing for the call and now
// blocks it; one that blocked it and now runs nothing for it; other tools and matchers.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { daemonEnv, noteOf, runClient, startDaemon, waitUntil } from '../helpers/native-client.js';

const hooks = (matcher: string, command: string) => ({
  dialect: 'claude-code',
  hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command }] }] },
});

const call = (tool: string) =>
  JSON.stringify({
    session_id: 's',
    transcript_path: '/tmp/t',
    cwd: '/tmp',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: tool === 'Bash' ? { command: 'ls' } : { file_path: '/tmp/x', content: '' },
    tool_use_id: 't',
  });

/** Calls until the daemon itself answers (after the reload the edit caused); returns that answer. */
async function daemonAnswer(args: string[], input: string, env: NodeJS.ProcessEnv) {
  return waitUntil(async () => {
    const r = await runClient(args, input, env);
    return noteOf(r.stderr) === undefined ? r : undefined;
  }, 'the daemon to answer after its reload');
}

describe('the daemon after a config edit', () => {
  const cases: [string, string, [string, string], [string, string], number, number][] = [
    // tool, what: before (matcher, command), after, exit before, exit after
    ['Bash', 'ran nothing, now blocks', ['Write', 'exit 2'], ['Bash', 'echo blocked >&2; exit 2'], 0, 2],
    ['Write', 'blocked, now runs nothing', ['Write|Edit', 'exit 2'], ['Bash', 'exit 2'], 2, 0],
    ['Edit', 'ran nothing, now blocks through a regex', ['Bash', 'exit 2'], ['Ed.*', 'exit 2'], 0, 2],
  ];
  for (const [tool, what, before, after, codeBefore, codeAfter] of cases)
    it(`${tool}: ${what}`, async () => {
      const dir = tempDir();
      const file = writeConfig(dir, 'settings.hookwarden.json', hooks(...before));
      const args = ['--config', file];
      const env = daemonEnv();
      await startDaemon(args, env);
      expect((await daemonAnswer(args, call(tool), env)).code).toBe(codeBefore);
      expect((await daemonAnswer(args, call(tool), env)).code).toBe(codeBefore);
      writeFileSync(file, JSON.stringify(hooks(...after)));
      // Whoever answers (the client's fallback at first, then the reloaded daemon) answers the new file.
      const first = await runClient(args, call(tool), env);
      expect(first.code).toBe(codeAfter);
      expect((await daemonAnswer(args, call(tool), env)).code).toBe(codeAfter);
      expect((await daemonAnswer(args, call(tool), env)).code).toBe(codeAfter);
    });
});
