// The pool's diagnostic channels (node:diagnostics_channel): what a leak check subscribes to, with
// nothing kept in product code. Publishing costs nothing without a subscriber.
//
//   hookwarden:pool:opened     a HookPool was made (the message: the pool, which has close())
//   hookwarden:pool:closed     a HookPool's close() finished (the message: the pool)
//   hookwarden:js-lane:closed  a QuickJS lane closed; the message: { stats }, each worker's stats
//                              (sandbox/js/worker.ts, JsWorkerStats) as it was destroyed
import { channel } from 'node:diagnostics_channel';

export const POOL_CHANNELS = {
  opened: 'hookwarden:pool:opened',
  closed: 'hookwarden:pool:closed',
  jsLaneClosed: 'hookwarden:js-lane:closed',
} as const;

export const poolOpened = channel(POOL_CHANNELS.opened);
export const poolClosed = channel(POOL_CHANNELS.closed);
export const jsLaneClosed = channel(POOL_CHANNELS.jsLaneClosed);
