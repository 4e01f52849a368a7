// Codex CLI's config.toml: only its [hooks] table is hook configuration ([hooks.state] and Codex's
// other settings are not), read in the Codex dialect (600 s default timeout, prompt hooks skipped as
// Codex skips them); TOML it cannot parse is a typed error with where; and what the load read is
// recorded, so a daemon that loaded it answers only while the file digests the same.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { digestNow } from '../../src/config/read-log.js';
import { tempDir, writeFile } from '../helpers/fixture.js';
import { loadConfig } from '../helpers/load-config.js';

const TOML = `model = "gpt-5"
approval_policy = "on-request"

[[hooks.PreToolUse]]
matcher = "Bash|apply_patch"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "/usr/local/bin/guard"
timeout = 30

[[hooks.SessionStart]]
[[hooks.SessionStart.hooks]]
type = "command"
command = "echo notes"

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "prompt"
prompt = "done?"

[hooks.state]
"/usr/local/bin/guard" = { enabled = true, trusted_hash = "abc" }
`;

const load = (path: string) => loadConfig({ config: [{ kind: 'file', path, scope: 'project' }], policy: [] });

it("loads the [hooks] of a Codex config.toml in Codex's dialect, and records the read", async () => {
  const dir = tempDir();
  const path = writeFile(join(dir, '.codex', 'config.toml'), TOML);
  const r = await load(path);
  expect(r.fatal).toEqual([]);
  expect(r.hooks.map((h) => [h.event, h.matcher?.source, h.deadlineMs])).toEqual([
    ['BeforeTool', 'Bash|apply_patch', 30_000],
    ['SessionStart', undefined, 600_000],
  ]);
  expect(r.diagnostics.map((d) => d.message).join('\n')).toMatch(/does not run "type": "prompt" hooks/);
  expect(r.diagnostics.map((d) => d.message).join('\n')).not.toMatch(/model|approval_policy|state/);
  const read = r.reads.find((x) => x.path === path);
  expect(read).toBeDefined();
  expect(digestNow(read!.kind, path)).toBe(read!.digest);
  writeFileSync(path, TOML.replace('timeout = 30', 'timeout = 31'));
  expect(digestNow(read!.kind, path)).not.toBe(read!.digest);
});

it('TOML that does not parse is a config error naming the line', async () => {
  const dir = tempDir();
  const path = writeFile(join(dir, '.codex', 'config.toml'), '[hooks\nPreToolUse = 1\n');
  const r = await load(path);
  expect(r.fatal.map((d) => d.message).join('\n')).toMatch(/invalid TOML at line 1/);
});
