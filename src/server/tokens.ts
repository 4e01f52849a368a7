// Bearer tokens of `hookwarden serve`. A token is 32 random bytes (base64url, prefixed `hw_` so
// secret scanners and people recognise it); the server stores only its SHA-256. A request's token
// is hashed and looked up by its digest, then compared with timingSafeEqual: the lookup's timing
// depends only on the digest of what the caller sent, which reveals nothing about stored tokens
// (finding a token with a chosen digest prefix is a preimage attack on SHA-256).
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { tenantIdProblem } from '../config/tenant-id.js';

/** Random bytes in a token (256 bits). */
const TOKEN_BYTES = 32;
export const TOKEN_PREFIX = 'hw_';

/** Who a token speaks for: one tenant, or the operator (admin routes; dispatch without a tenant). */
export type Principal = { readonly kind: 'tenant'; readonly tenant: string } | { readonly kind: 'admin' };

/** One line of the auth file: the token's digest and whom it speaks for. */
export type TokenEntry =
  | { readonly sha256: string; readonly tenant: string; readonly note?: string }
  | { readonly sha256: string; readonly admin: true; readonly note?: string };

export const tokenDigest = (token: string): Buffer => hash('sha256', token, 'buffer') as unknown as Buffer;

/** A new token and its auth-file entry (only the entry goes into the file). */
export function newToken(who: { tenant: string } | { admin: true }): { token: string; entry: TokenEntry } {
  if ('tenant' in who) {
    const problem = tenantIdProblem(who.tenant);
    if (problem !== undefined) throw new Error(`--tenant: ${problem}`);
  }
  const token = `${TOKEN_PREFIX}${randomBytes(TOKEN_BYTES).toString('base64url')}`;
  const sha256 = tokenDigest(token).toString('hex');
  return { token, entry: 'tenant' in who ? { sha256, tenant: who.tenant } : { sha256, admin: true } };
}

/** The principals of an auth file's tokens, by digest. */
export class TokenTable {
  readonly #byDigest = new Map<string, { digest: Buffer; principal: Principal }>();
  /** Tenant ids the tokens speak for. */
  readonly tenants: ReadonlySet<string>;

  constructor(entries: readonly TokenEntry[]) {
    const tenants = new Set<string>();
    for (const e of entries) {
      const principal: Principal = 'tenant' in e ? { kind: 'tenant', tenant: e.tenant } : { kind: 'admin' };
      if (principal.kind === 'tenant') tenants.add(principal.tenant);
      this.#byDigest.set(e.sha256, { digest: Buffer.from(e.sha256, 'hex'), principal });
    }
    this.tenants = tenants;
  }

  get size(): number {
    return this.#byDigest.size;
  }

  /** The principal of a presented token, or undefined when no entry holds its digest. */
  verify(token: string): Principal | undefined {
    const digest = tokenDigest(token);
    const found = this.#byDigest.get(digest.toString('hex'));
    if (found === undefined || !timingSafeEqual(found.digest, digest)) return undefined;
    return found.principal;
  }
}
