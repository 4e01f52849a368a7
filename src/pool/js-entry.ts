// A QuickJS lane's run as it waits in the tenant queues and travels in a batch to a worker.
import type { JsHookSpec, JsTask, JsTaskResult } from '../contract/js-task.js';
import type { BatchAbort } from './batch-abort.js';
import type { LaneResult } from './lane.js';

export type JsLaneResult = LaneResult<JsTaskResult>;

/** A task for the lane: the worker task and the specs of its hooks (in the task's order). */
export interface JsCall {
  readonly task: JsTask;
  readonly specs: readonly JsHookSpec[];
}

/** A task's shape for run-time estimates: its hooks, in order. */
export const shape = (task: JsTask) => task.hooks.join('\u0000');

export interface Entry {
  readonly call: JsCall;
  /** The task's hook ids, in order: the key of its run-time estimate. */
  readonly shape: string;
  /** The tenant whose turn it takes ('' = none): the run options', not the task's. */
  readonly tenant: string;
  readonly budgetMs: number;
  readonly signal: AbortSignal | undefined;
  readonly queuedAt: number;
  readonly resolve: (r: JsLaneResult) => void;
  sentAt: number;
  done: boolean;
  /** Sent again with its specs: the worker did not hold them. */
  resent: boolean;
  batch: Batch | undefined;
  onAbort: (() => void) | undefined;
  readonly onStart: (() => void) | undefined;
}

export interface Batch {
  readonly entries: Entry[];
  readonly abort: BatchAbort;
  why: 'backstop' | 'abort' | 'close' | undefined;
}
