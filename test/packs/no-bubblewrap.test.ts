// The README's pack check on a machine without bubblewrap (issue 37): the example packs' namespace
// fixtures pass whatever HOOKWARDEN_BWRAP names — a missing program, or one that is not bubblewrap at
// all — because namespace mode is the spawn server's own sandbox. bubblewrap is used only when
// HOOKWARDEN_NAMESPACE=bwrap asks for it (the tests' cross-check). Real CLI, real packs.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serverCheck } from '../../sandbox/command/server-check.js';
import { runCli } from '../helpers/cli.js';

const PACKS = fileURLToPath(new URL('../../examples/packs/', import.meta.url));
const namespaces = serverCheck()?.namespace.ok === true;
if (!namespaces) console.warn('pack tests without bubblewrap not run: this host cannot make namespaces');

describe.runIf(namespaces)('pack test without bubblewrap', () => {
  it.each([
    ['guard', '/nonexistent/bwrap'],
    ['guard', '/bin/false'],
    ['every-agent', '/nonexistent/bin/bwrap'],
  ])('examples/packs/%s passes with HOOKWARDEN_BWRAP=%s', async (pack, bwrap) => {
    const { HOOKWARDEN_NAMESPACE: _, ...env } = process.env;
    const r = await runCli(['pack', 'test', `${PACKS}${pack}`], { env: { ...env, HOOKWARDEN_BWRAP: bwrap } });
    expect(r.stdout + r.stderr).not.toMatch(/isolation_unavailable/);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });
});
