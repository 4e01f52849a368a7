// Helpers of the agent-edge tests (test/dispatch/agent-edges.test.ts, agent-answers.test.ts): real
// config files, executors closed after the file, command hooks whose answers are written to files,
// an agent's own input dispatched through its protocol as the adapter does, and a policy guard.
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { AGENTS } from '../../src/contract/agents/index.js';
import type { AgentName } from '../../src/contract/agents/protocol.js';
import { createExecutor, type Executor } from '../../src/index.js';
import { tempDir, writeConfig, writeFile } from './fixture.js';

export type Obj = Record<string, unknown>;
const open: Executor[] = [];
// Generous bounds that only catch a hang: a busy machine must not fail these tests.
afterAll(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
}, 120_000);

export async function executor(config: string[], policy: string[] = [], root = tempDir()): Promise<Executor> {
  const e = await createExecutor({ config, policy, root, onWarning: () => {} });
  open.push(e);
  return e;
}

/** A command hook that prints `stdout`, `stderr` and exits `code` (through files: any bytes). */
export function answering(dir: string, name: string, a: { stdout?: string; stderr?: string; code?: number }) {
  const out = writeFile(join(dir, `${name}.out`), a.stdout ?? '');
  const err = writeFile(join(dir, `${name}.err`), a.stderr ?? '');
  return `cat >/dev/null; cat '${out}'; cat '${err}' >&2; exit ${a.code ?? 0}`;
}

/** Dispatches an agent's own input through its protocol, as the adapter does. */
export async function viaAgent(e: Executor, agent: AgentName, event: string, raw: Obj) {
  const d = AGENTS[agent].toDispatch(event, raw);
  return e.dispatch(d.event, d.input);
}

/** A policy guard written once in the vocabulary: it denies whatever it is run for, saying what it saw. */
export function policyGuard(dir: string, matcher: string): string {
  return writeConfig(dir, `policy-${matcher.replace(/\W/g, '_')}.json`, {
    hooks: {
      BeforeTool: [
        {
          matcher,
          hooks: [
            {
              type: 'js',
              timeoutMs: 30_000,
              name: 'guard',
              code: "export default (i) => ({ decision: 'deny', reason: 'guard saw ' + JSON.stringify(i.unplacedTool ?? null) })",
            },
          ],
        },
      ],
    },
  });
}
