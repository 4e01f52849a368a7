// The clock and timezone QuickJS sees, pinned in this worker thread's realm. QuickJS reads time and
// local-time rules through emscripten's glue, which calls this realm's global `Date` at each call:
// replacing it here makes Date.now() and new Date() in every hook return the event's timestamp and
// makes local time UTC — without a line of guest code (which QuickJS would have to compile for every
// fresh runtime). Only for worker threads that run nothing but hooks.

const RealDate = Date;
let nowMs = 0;

type DateArgs = [] | [number | string | Date] | [number, number, ...number[]];

class PinnedDate extends RealDate {
  constructor(...args: DateArgs) {
    if (args.length === 0) super(nowMs);
    else if (args.length === 1) super(args[0]);
    // Local-time components are read as UTC: the guest's local time is UTC.
    else super(RealDate.UTC(...(args as [number, number, ...number[]])));
  }
  static override now(): number {
    return nowMs;
  }
  override getTimezoneOffset(): number {
    return 0;
  }
  override getFullYear(): number {
    return this.getUTCFullYear();
  }
  override getMonth(): number {
    return this.getUTCMonth();
  }
  override getDate(): number {
    return this.getUTCDate();
  }
  override getDay(): number {
    return this.getUTCDay();
  }
  override getHours(): number {
    return this.getUTCHours();
  }
  override getMinutes(): number {
    return this.getUTCMinutes();
  }
  override getSeconds(): number {
    return this.getUTCSeconds();
  }
  override getMilliseconds(): number {
    return this.getUTCMilliseconds();
  }
}

let installed = false;

/** Installs the pinned Date in this realm (idempotent). */
export function installPinnedClock(): void {
  if (installed) return;
  installed = true;
  globalThis.Date = PinnedDate as DateConstructor;
}

/** Sets "now" for the next hook: the event's timestamp in ms. */
export function setClock(ms: number): void {
  nowMs = ms;
}
