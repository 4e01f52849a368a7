// The deadline of a one-shot command (--timeout): a timer that answers for it when it runs out.

/** A timer that calls `onExpiry` after `ms` (none without `ms`); it never keeps the process alive. */
export function startDeadline(ms: number | undefined, onExpiry: () => void): NodeJS.Timeout | undefined {
  const timer = ms === undefined ? undefined : setTimeout(onExpiry, ms);
  timer?.unref();
  return timer;
}
