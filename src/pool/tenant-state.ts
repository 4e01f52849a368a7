// One tenant's bookkeeping in a lane's TenantQueues (tenant-queues.ts): its queued items, the work it
// has running and the lane slots that work holds, its fair-share demand, its rotation credit and its
// CPU window.

export interface TenantState<T> {
  readonly id: string;
  readonly queue: T[];
  /** Items running (a JS batch counts each of its tasks). */
  running: number;
  /** Lane slots in use: one per `started()` call (a command, a JS batch). */
  slots: number;
  /** Last time this tenant queued, started or finished work. */
  lastSeen: number;
  /** Most slots plus queued items seen in the current and the previous peak window. */
  peak: number;
  prevPeak: number;
  peakAt: number;
  credit: number;
  windowStart: number;
  usedMs: number;
}

/** A tenant's state when it first queues (or comes back after it was swept out). */
export function newTenantState<T>(id: string): TenantState<T> {
  return {
    id,
    queue: [],
    running: 0,
    slots: 0,
    lastSeen: 0,
    peak: 0,
    prevPeak: 0,
    peakAt: 0,
    credit: 0,
    windowStart: 0,
    usedMs: 0,
  };
}
