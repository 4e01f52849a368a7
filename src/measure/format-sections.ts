// The text of a replay's session cost: its table, the stages' shares, and where the tool-call
// counts come from.
import type { SessionCost } from './bench-result.js';
import { fixed, int, percent } from './number-format.js';
import { sessionRows } from './section-rows.js';
import { table } from './text-grid.js';

/** What the session cost's note says, in text and HTML alike. */
export function sessionNote(s: SessionCost): { shares: string; perCall: string; counts: string } {
  const rec = s.rows[0]!;
  const share = (v: number) => percent(v, rec.totalMs);
  const counts = Object.entries(s.distribution.toolCalls)
    .map(([k, v]) => `${k} ${int(v)}`)
    .join(', ');
  return {
    shares: `queue ${share(rec.stages.queueMs)}, spawn / isolate ${share(rec.stages.transportMs)}, hook run ${share(rec.stages.runMs)}, fold ${share(rec.stages.foldMs)}`,
    perCall: `per tool call ${fixed(s.perToolCallMs, 3)} ms (every event but SessionStart and SessionEnd, at the recorded mix), once per session ${fixed(s.perSessionMs, 3)} ms; the first calls add ${fixed(s.coldExtraMs, 1)} ms once per executor start`,
    counts: `tool calls per session: ${counts || 'none given'} (${s.distribution.source}); recorded: ${fixed(s.toolCallsPerSession, Number.isInteger(s.toolCallsPerSession) ? 0 : 2)} over ${s.sessions} session${s.sessions === 1 ? '' : 's'}`,
  };
}

/** The session cost: one row per tool-call count, the stages' shares, and where the counts come from. */
export function sessionLines(s: SessionCost): string[] {
  const note = sessionNote(s);
  return [
    table(sessionRows(s, 'session cost (s)')),
    `shares: ${note.shares}`,
    note.perCall,
    note.counts,
    ...(s.note === undefined ? [] : [`note: ${s.note}`]),
  ];
}
