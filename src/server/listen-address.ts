// `--listen` and `--metrics-listen` values: `HOST:PORT`, where HOST is an IP address (IPv6 in
// brackets) or `localhost`. Names other than localhost are refused: what a name resolves to can
// change, and whether the service may run without --auth depends on the address being loopback.
import { BlockList, isIP } from 'node:net';

export interface ListenAddress {
  /** The IP address to bind (`localhost` is 127.0.0.1). */
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
}

/** Parses `HOST:PORT`; returns the problem as a sentence when the value is not one. */
export function parseListenAddress(value: string): ListenAddress | { problem: string } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(value.trim());
  const hint =
    'expected HOST:PORT, e.g. 127.0.0.1:8080, [::1]:8080 or 0.0.0.0:8080 (port 0 picks a free port)';
  if (m === null) return { problem: `${hint}, got ${JSON.stringify(value)}` };
  const port = Number(m[3]);
  if (port > 65535) return { problem: `port ${port} is above 65535` };
  const raw = m[1] ?? m[2]!;
  const host = raw === 'localhost' ? '127.0.0.1' : raw;
  const family = isIP(host);
  if (family === 0)
    return {
      problem: `${JSON.stringify(raw)} is not an IP address; give one (0.0.0.0 or [::] listens on every interface)`,
    };
  if (family === 6 && m[1] === undefined)
    return { problem: `write an IPv6 address in brackets: [${raw}]:${port}` };
  return { host, port };
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether only this machine can reach the address (127.0.0.0/8, ::1, ::ffff:127.x.x.x). */
export function isLoopback(host: string): boolean {
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/** The URL of a bound address (IPv6 in brackets). */
export function addressUrl(host: string, port: number): string {
  return `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}
