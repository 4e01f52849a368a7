// The adapter spec of a coding agent (`hookwarden codex|gemini|cursor|copilot`) from its protocol
// (contract/agents/): the input is the agent's JSON, its event from `hook_event_name` or --event
// (Copilot CLI's inputs do not name theirs), translated into the dispatch hookwarden runs; answers
// and failures are the protocol's. Dependency-free: the fast path loads it.
import { AGENTS } from '../../contract/agents/index.js';
import { AgentInputProblem, type AgentName } from '../../contract/agents/protocol.js';
import { DEFAULT_EVENTS, EventCatalogue } from '../../contract/events.js';
import type { FlagSpec } from '../claude-code/flags.js';
import { InputProblem, parseInputJson } from '../claude-code/input.js';
import { runAdapterCommand } from './run-adapter.js';
import type { AdapterSpec } from './spec.js';

const EVENT_FLAG: FlagSpec = {
  name: 'event',
  value: '<name>',
  description:
    "the agent's event this hook is for, when its input does not say (Copilot CLI's do not; `install` writes it); an input that names another event is refused",
};
const EXPLICIT_ALLOW: FlagSpec = {
  name: 'explicit-allow',
  description:
    'answer a passthrough on a permission event with {"permission": "allow"}: a Cursor hook marked failClosed that answers nothing is blocked (`cursor install` writes it when the hooks it moved failed closed)',
};

/** The adapter spec of `agent`. */
export function agentAdapter(agent: AgentName): AdapterSpec {
  const p = AGENTS[agent];
  return Object.freeze<AdapterSpec>({
    command: agent,
    title: p.title,
    projectDirEnv: p.projectDirEnv,
    extraFlags: agent === 'cursor' ? [EVENT_FLAG, EXPLICIT_ALLOW] : [EVENT_FLAG],
    read: (text, flags) => {
      const raw = parseInputJson(text);
      const named = p.eventOf(raw);
      if (flags.event !== undefined && named !== undefined && named !== flags.event)
        throw new InputProblem(
          `the input is a ${JSON.stringify(named).slice(0, 80)} event, not --event ${flags.event}`,
          flags.event,
        );
      const event = flags.event ?? named;
      if (event === undefined)
        throw new InputProblem(
          agent === 'copilot'
            ? "the input names no event: Copilot CLI's hook inputs do not, so give --event <name> (install writes it)"
            : `hook_event_name: expected one of ${p.title}'s hook events, got none`,
        );
      if (!Object.hasOwn(p.events, event))
        throw new AgentInputProblem(
          `${flags.event === undefined ? 'hook_event_name' : '--event'}: expected one of ${p.title}'s hook events (${Object.keys(p.events).join(', ')}), got ${JSON.stringify(event).slice(0, 80)}`,
        );
      const left = p.events[event]!.left;
      if (
        left !== undefined &&
        new EventCatalogue(DEFAULT_EVENTS).get(p.events[event]!.dispatch) === undefined
      )
        throw new AgentInputProblem(
          `${p.title}'s ${event} has no hookwarden event (${left}): no hook runs under hookwarden for it; leave its hooks with ${p.title}, as \`hookwarden ${agent} install\` does`,
          event,
        );
      const d = p.toDispatch(event, raw);
      return { event, dispatchEvent: d.event, input: d.input };
    },
    answer: (read, result, flags) =>
      p.toAnswer(read.event, result, read.input, { explicitAllow: flags.explicitAllow === true }),
    failure: (event, reason) => p.failure(event, reason),
  });
}

/** Runs the adapter of `agent` (`hookwarden <agent> …`), then starts the daemon hookwarden-client asked for. */
export function runAgentAdapter(agent: AgentName, args: readonly string[]): Promise<number> {
  return runAdapterCommand(agentAdapter(agent), args);
}
