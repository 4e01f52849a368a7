// Bundles of packs pinned by URL: fetched (conditionally, with the ETag of the last response),
// unpacked safely into the content-addressed cache, and remembered per URL. This class only gets
// bundles onto disk; whether one may be used is decided by the pin loader, which verifies it like any
// pinned pack and tells `accept()` which one became the last known good.
import { chmod, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { packDigest } from '../digest.js';
import { SIG_FILE } from '../names.js';
import { readPlainFile } from '../plain-file.js';
import { walkPack } from '../walk.js';
import { fetchBundle } from './fetch-bundle.js';
import type { ResolvedRemoteOptions } from './options.js';
import {
  bundleDir,
  ensurePrivateDir,
  hasBundle,
  readUrlRecord,
  replaceSignature,
  writeUrlRecord,
} from './pack-cache.js';

/** The fetched bundle's hookpack.sig when it differs from the cached bundle's, else undefined. */
async function newSignature(fetched: string, cached: string): Promise<Buffer | undefined> {
  const [mine, theirs] = await Promise.all([
    readPlainFile(join(fetched, SIG_FILE)),
    readPlainFile(join(cached, SIG_FILE)),
  ]);
  if (!mine.ok) return undefined;
  return theirs.ok && theirs.bytes.equals(mine.bytes) ? undefined : mine.bytes;
}

/** An unpacked bundle in the cache (not yet verified against any pin). */
export interface CachedBundle {
  readonly digest: string;
  readonly dir: string;
  readonly etag: string | undefined;
  /**
   * A signature file that came with this content and differs from the cached bundle's (a key
   * rotation republishes the same digest with new signatures): verified in its place, and written
   * into the cached bundle once a load accepts it.
   */
  readonly signature?: Buffer | undefined;
}

/** The last known good of a URL, with the pack it was when verified. */
export interface GoodBundle extends CachedBundle {
  readonly checkedAt: number;
  readonly packName: string | undefined;
  readonly packVersion: string | undefined;
}

export type BundleOutcome =
  | {
      readonly ok: true;
      readonly bundle: CachedBundle;
      /** fetched: a 200 just now; not-modified: a 304; cache: no request was made. */
      readonly source: 'fetched' | 'not-modified' | 'cache';
    }
  | { readonly ok: false; readonly problem: string };

interface UrlState {
  /** The outcome of the last response that was processed (its ETag is sent next time). */
  readonly last:
    | { readonly bundle: CachedBundle }
    | { readonly problem: string; readonly etag: string | undefined };
  readonly checkedAt: number;
}

export interface BundleRequest {
  /** The pin's digest: a cached bundle with it is used without any request. */
  readonly digest?: string | undefined;
  readonly pollSeconds: number;
  /** Ask the server whatever the revalidate mode says (polling, or a cached copy just refused). */
  readonly force?: boolean | undefined;
}

export class RemotePacks {
  readonly options: ResolvedRemoteOptions;
  readonly #state = new Map<string, UrlState>();
  readonly #inflight = new Map<string, Promise<BundleOutcome>>();
  readonly #closing = new AbortController();
  #cacheReady: Promise<void> | undefined;

  constructor(options: ResolvedRemoteOptions) {
    this.options = options;
  }

  /** The newest bundle of `url` as this process knows it, asking the server when due. */
  async bundle(url: string, request: BundleRequest): Promise<BundleOutcome> {
    try {
      await this.#ensureCache();
    } catch (err) {
      return { ok: false, problem: (err as Error).message };
    }
    if (request.digest !== undefined && request.force !== true) {
      const dir = bundleDir(this.options.cacheDir, request.digest);
      if (await hasBundle(dir))
        return { ok: true, bundle: { digest: request.digest, dir, etag: undefined }, source: 'cache' };
    }
    const running = this.#inflight.get(url);
    if (running !== undefined) return running;
    // Any failure is an outcome (the cache full, a folder removed meanwhile), never an exception.
    const run = this.#refresh(url, request)
      .catch(
        (err: unknown): BundleOutcome => ({
          ok: false,
          problem: `the pack cache: ${(err as Error).message}`,
        }),
      )
      .finally(() => this.#inflight.delete(url));
    this.#inflight.set(url, run);
    return run;
  }

  /** The last known good bundle of `url` (accepted by a load, here or in an earlier process). */
  async lastGood(url: string): Promise<GoodBundle | undefined> {
    const record = await readUrlRecord(this.options.cacheDir, url);
    if (record === undefined) return undefined;
    const dir = bundleDir(this.options.cacheDir, record.digest);
    if (!(await hasBundle(dir))) return undefined;
    return {
      digest: record.digest,
      dir,
      etag: record.etag,
      checkedAt: record.checkedAt,
      packName: record.packName,
      packVersion: record.packVersion,
    };
  }

  /** The version last verified from `url` (a url pin never goes below it), if recorded. */
  async lastVersion(url: string): Promise<string | undefined> {
    return (await readUrlRecord(this.options.cacheDir, url))?.packVersion;
  }

  /**
   * Records `bundle` as the last known good of `url`: it loaded under its pin as the pack `pack`. A
   * signature file that came with it replaces the cached bundle's (it verified).
   */
  async accept(
    url: string,
    bundle: CachedBundle,
    source: 'fetched' | 'not-modified' | 'cache',
    pack: { readonly name: string | undefined; readonly version: string | undefined },
  ): Promise<void> {
    if (bundle.signature !== undefined) {
      await replaceSignature(bundle.dir, bundle.signature);
      const state = this.#state.get(url);
      if (state !== undefined && 'bundle' in state.last && state.last.bundle.dir === bundle.dir) {
        const { signature: _s, ...rest } = state.last.bundle;
        this.#state.set(url, { ...state, last: { bundle: rest } });
      }
    }
    // A bundle used without asking the server confirms nothing new.
    if (source === 'cache') return;
    const checkedAt = this.#state.get(url)?.checkedAt ?? Date.now();
    await writeUrlRecord(this.options.cacheDir, {
      version: 1,
      url,
      ...(bundle.etag === undefined ? {} : { etag: bundle.etag }),
      digest: bundle.digest,
      checkedAt,
      ...(pack.name === undefined ? {} : { packName: pack.name }),
      ...(pack.version === undefined ? {} : { packVersion: pack.version }),
    });
  }

  /** Stops downloads in flight (their loads fall back to the last known good). */
  close(): void {
    this.#closing.abort(new Error('closed'));
  }

  #ensureCache(): Promise<void> {
    this.#cacheReady ??= ensurePrivateDir(this.options.cacheDir);
    const ready = this.#cacheReady;
    // A failure is not remembered: the next load tries again (the operator may have fixed it).
    ready.catch(() => {
      if (this.#cacheReady === ready) this.#cacheReady = undefined;
    });
    return ready;
  }

  async #refresh(url: string, request: BundleRequest): Promise<BundleOutcome> {
    let state = this.#state.get(url);
    if (state === undefined) {
      const good = await this.lastGood(url);
      if (good !== undefined) {
        state = { last: { bundle: good }, checkedAt: good.checkedAt };
        this.#state.set(url, state);
      }
    }
    const fresh = Date.now() - (state?.checkedAt ?? 0) < request.pollSeconds * 1000;
    if (state !== undefined && 'bundle' in state.last && request.force !== true) {
      if (this.options.revalidate === 'when-stale' && fresh && (await hasBundle(state.last.bundle.dir)))
        return { ok: true, bundle: state.last.bundle, source: 'cache' };
    }
    const etag =
      state === undefined ? undefined : 'bundle' in state.last ? state.last.bundle.etag : state.last.etag;
    const res = await fetchBundle(url, {
      etag,
      maxBytes: this.options.maxBundleBytes,
      timeoutMs: this.options.timeoutMs,
      signal: this.#closing.signal,
    });
    if (res.kind === 'failed') return { ok: false, problem: res.problem };
    if (res.kind === 'not-modified' && state !== undefined) {
      this.#state.set(url, { last: state.last, checkedAt: Date.now() });
      if ('problem' in state.last) return { ok: false, problem: state.last.problem };
      if (await hasBundle(state.last.bundle.dir))
        return { ok: true, bundle: state.last.bundle, source: 'not-modified' };
      // The cached copy is gone: ask again, unconditionally.
      this.#state.delete(url);
      return this.#refresh(url, { ...request, force: true });
    }
    if (res.kind === 'not-modified')
      return { ok: false, problem: 'HTTP 304 to a request without If-None-Match' };
    const stored = await this.#store(res.bytes, res.etag);
    this.#state.set(url, {
      last: 'problem' in stored ? { ...stored, etag: res.etag } : stored,
      checkedAt: Date.now(),
    });
    return 'problem' in stored
      ? { ok: false, problem: stored.problem }
      : { ok: true, bundle: stored.bundle, source: 'fetched' };
  }

  /** Unpacks a downloaded bundle into the cache, under its pack digest. */
  async #store(
    bytes: Buffer,
    etag: string | undefined,
  ): Promise<{ bundle: CachedBundle } | { problem: string }> {
    const staging = await mkdtemp(join(this.options.cacheDir, '.unpack-'));
    try {
      const { unpackBundle } = await import('./unpack.js'); // tar is loaded only to unpack
      await unpackBundle(bytes, staging, this.options);
      const walk = await walkPack(staging);
      if (walk.problems.length > 0) return { problem: walk.problems.join('; ') };
      const digest = packDigest(walk.files);
      const dir = bundleDir(this.options.cacheDir, digest);
      if (!(await hasBundle(dir))) {
        await chmod(staging, 0o755); // the cache itself stays 0700
        try {
          await rename(staging, dir);
          return { bundle: { digest, dir, etag } };
        } catch (err) {
          // Another process stored the same content meanwhile: same digest, same files.
          if (!(await hasBundle(dir))) throw err;
        }
      }
      // The content is cached already; its signatures may be new (a key rotation).
      const signature = await newSignature(staging, dir);
      return { bundle: { digest, dir, etag, ...(signature === undefined ? {} : { signature }) } };
    } catch (err) {
      return { problem: (err as Error).message };
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
}
