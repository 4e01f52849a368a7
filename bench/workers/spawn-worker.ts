// Piscina worker for the "spawn from a worker thread" variant of the command-hook benchmark.
import { ProcessGroups } from '../../sandbox/command/kill-group.js';
import { runCommand } from '../../sandbox/command/run-command.js';
import type { CommandTask } from '../../src/contract/command-task.js';

const groups = new ProcessGroups();

export default function run(task: CommandTask) {
  return runCommand(task, groups);
}
