// The fields of a url pin, checked at load without loading any of the fetch or pack machinery: which
// URLs may be fetched, and what a pin of a fetched pack must say. The loader is ./url-pin.ts.
import { isIP } from 'node:net';
import type { DiagnosticSink } from '../../config/diagnostics.js';
import { joinPath, renderValue } from '../../contract/messages.js';

const isLoopback = (hostname: string): boolean => {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
};

/**
 * Why a bundle URL is refused, or undefined: https anywhere; plain http only to a loopback address
 * (127.0.0.0/8, ::1, localhost), where nothing crosses a network; no user or password in the URL.
 */
export function bundleUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'expected an absolute https:// URL';
  }
  if (u.username !== '' || u.password !== '')
    return 'a URL may not carry a user or password (it would sit in the config and in logs)';
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:')
    return isLoopback(u.hostname)
      ? undefined
      : 'plain http is allowed only to a loopback address (127.0.0.1, ::1, localhost); use https';
  return `expected an https:// URL, got a ${u.protocol} URL`;
}

/** Reports what is wrong with the url-specific fields of a raw pin (into `sink`, at `at`). */
export function checkUrlPin(raw: Record<string, unknown>, at: string, sink: DiagnosticSink): void {
  const hasUrl = raw.url !== undefined;
  if (hasUrl === (raw.path !== undefined)) {
    sink.error(
      at,
      hasUrl
        ? 'give either "path" (a pack directory) or "url" (a bundle), not both'
        : 'expected "path" (a pack directory) or "url" (a bundle to fetch)',
    );
    return;
  }
  if (!hasUrl) {
    if (raw.pollSeconds !== undefined)
      sink.error(
        joinPath(at, 'pollSeconds'),
        `only a url pin is polled, got ${renderValue(raw.pollSeconds)}`,
      );
    return;
  }
  if (typeof raw.url === 'string') {
    const problem = bundleUrlProblem(raw.url);
    if (problem !== undefined) sink.error(joinPath(at, 'url'), `${problem}, got ${renderValue(raw.url)}`);
  }
  // What comes over a network must be pinned: by content, or by a signature that cannot be waived.
  if (raw.digest === undefined && raw.publicKeys === undefined)
    sink.error(
      at,
      'a url pin needs "digest" or "publicKeys" (with a signature required): a fetched pack is never unpinned',
    );
  else if (raw.digest === undefined && raw.requireSignature === false)
    sink.error(
      joinPath(at, 'requireSignature'),
      'a url pin without a digest must require a signature (a fetched pack is never unpinned), got false',
    );
  // A key signs every pack its reviewer signed: the pin says which one this URL must serve.
  if (raw.digest === undefined && raw.name === undefined)
    sink.error(
      at,
      'a url pin without a digest needs "name": the pack the URL must serve (the key may sign other packs, which are refused)',
    );
  if (raw.digest !== undefined && raw.pollSeconds !== undefined)
    sink.warn(
      joinPath(at, 'pollSeconds'),
      'a pin with a digest is never polled: that content cannot change (pin the new digest to upgrade)',
    );
}
