// Authentication of a request: `Authorization: Bearer <token>` against the auth file's digests.
// The tenant of a request is its token's tenant, and nothing else: a tenant named in the body, the
// query or a header is never read. Without --auth (loopback only) every caller is the operator.
import { ApiError } from './errors.js';
import type { Principal, TokenTable } from './tokens.js';

const OPERATOR: Principal = Object.freeze({ kind: 'admin' });
const CHALLENGE = { 'www-authenticate': 'Bearer realm="hookwarden"' };
const BEARER = /^Bearer +(\S+) *$/i;

/** Route access: `public` (probes, the OpenAPI document), `tenant` (any token), `admin` (admin tokens). */
export type Access = 'public' | 'tenant' | 'admin';

/** The caller of a request to a route of `access` (undefined for public routes); throws a 401 ApiError. */
function authenticate(
  tokens: TokenTable | undefined,
  access: Access,
  authorization: string | undefined,
): Principal | undefined {
  if (access === 'public') return undefined;
  if (tokens === undefined) return OPERATOR;
  if (authorization === undefined)
    throw new ApiError(401, 'unauthorized', 'missing "Authorization: Bearer <token>" header', CHALLENGE);
  const m = BEARER.exec(authorization);
  if (m === null)
    throw new ApiError(401, 'unauthorized', 'expected "Authorization: Bearer <token>"', CHALLENGE);
  const principal = tokens.verify(m[1]!);
  if (principal === undefined)
    throw new ApiError(401, 'unauthorized', 'the token is not in the auth file', CHALLENGE);
  return principal;
}

/** An Authorization header a connection presented, and what the token table in force made of it. */
export interface VerifiedHeader {
  readonly header: string;
  readonly table: TokenTable;
  readonly principal: Principal;
}

/**
 * authenticate(), remembering the last header verified on a connection: a keep-alive client sends
 * the same token with every request, and hashing it again costs more than the fast-path dispatch.
 * Comparing the header with the remembered one is not constant-time, which is safe: only a client
 * that has itself presented a valid token on this TCP connection has anything remembered to compare
 * with, and a reload (a new table) forgets it.
 */
export function authenticateOn(
  conn: { verified: VerifiedHeader | undefined },
  tokens: TokenTable | undefined,
  access: Access,
  authorization: string | undefined,
): Principal | undefined {
  const v = conn.verified;
  if (access !== 'public' && v !== undefined && v.table === tokens && v.header === authorization)
    return v.principal;
  const principal = authenticate(tokens, access, authorization);
  if (principal !== undefined && tokens !== undefined && authorization !== undefined)
    conn.verified = { header: authorization, table: tokens, principal };
  return principal;
}

/** Throws a 403 ApiError when `principal` may not use a route of `access`. */
export function authorize(principal: Principal | undefined, access: Access): void {
  if (access === 'admin' && principal?.kind !== 'admin')
    throw new ApiError(
      403,
      'forbidden',
      'this route needs an admin token (`hookwarden serve token --admin`)',
    );
}

/** The tenant a principal dispatches for: a tenant token's tenant; none for the operator. */
export const tenantOf = (p: Principal | undefined): string | undefined =>
  p?.kind === 'tenant' ? p.tenant : undefined;
