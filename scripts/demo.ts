// `npm run demo`: dispatches the example events against examples/hooks.json and shows the verdicts
// (deny, ask, allow, passthrough) with timings. The same runs through the CLI:
//   hookwarden dispatch BeforeTool --config examples/hooks.json --input examples/events/bash-rm-rf.json
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createExecutor } from '../src/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const example = (name: string) => JSON.parse(readFileSync(`${root}examples/events/${name}.json`, 'utf8'));

const runs: [string, string, string][] = [
  ['BeforeTool', 'bash-rm-rf', 'a shell guard denies (exit 2, stderr is the reason)'],
  ['BeforeTool', 'write-env', 'a write to a secrets file asks for approval'],
  ['BeforeTool', 'write-etc', 'a JS hook (QuickJS isolate) denies a write to a system path'],
  ['ApprovalRequest', 'approve-read', 'a read-only tool is auto-approved'],
  ['BeforeTool', 'bash-ls', 'the guard looked and said nothing: passthrough'],
  ['BeforeTool', 'glob', 'no hook matches Glob: passthrough on the fast path'],
  ['AfterTool', 'bash-output', 'a JS hook redacts a credential from the tool output'],
  ['SessionStart', 'session-start', 'an observer injects context'],
];

const executor = await createExecutor({ config: `${root}examples/hooks.json`, root });
try {
  console.log(`hookwarden demo — config: examples/hooks.json, root: ${root}\n`);
  for (const [event, file, what] of runs) {
    const input = { sessionId: 'demo', cwd: root, timestamp: new Date().toISOString(), ...example(file) };
    const started = performance.now();
    const result = await executor.dispatch(event, input);
    const ms = (performance.now() - started).toFixed(2);
    const tool = input.toolName === undefined ? '' : ` ${input.toolName}`;
    console.log(`${event}${tool} (${file}.json) — ${what}`);
    console.log(
      `  decision: ${result.decision}${result.decidedBy ? ` by ${result.decidedBy}` : ''}${result.reason ? ` — "${result.reason}"` : ''}`,
    );
    if (result.additionalContext)
      console.log(`  additionalContext: ${JSON.stringify(result.additionalContext)}`);
    if (result.updatedToolOutput !== undefined) {
      console.log(`  updatedToolOutput: ${JSON.stringify(result.updatedToolOutput)}`);
    }
    const hooks = result.hooks
      .map((h) => `${h.id} (${h.type}) ${h.outcome} ${h.latencyMs.toFixed(2)} ms`)
      .join(', ');
    console.log(`  hooks: ${hooks || 'none ran'} · dispatch ${ms} ms\n`);
  }
  console.log('Same thing from the CLI (exit 2 = deny):');
  console.log(
    '  hookwarden dispatch BeforeTool --config examples/hooks.json --input examples/events/bash-rm-rf.json --pretty',
  );
} finally {
  await executor.close();
}
