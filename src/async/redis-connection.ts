// The Redis mode's connection options (from a redis:// or rediss:// URL) and its bounded waits on a
// Redis that may be gone.

/** Waits for `p` (errors ignored) at most `ms`. */
export async function bounded(p: Promise<unknown> | undefined, ms: number): Promise<void> {
  if (p === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p.catch(() => {}), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/** ioredis options of a redis:// URL (BullMQ's worker builds its own blocking connection from them). */
export function connectionOf(url: string): Record<string, unknown> & { host: string; port: number } {
  const u = new URL(url);
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: u.port === '' ? 6379 : Number(u.port),
    ...(u.username !== '' ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password !== '' ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.pathname.length > 1 ? { db: Number(u.pathname.slice(1)) } : {}),
    // rediss:// is TLS on these connections too (ioredis does the same for the URL it parses itself).
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}
