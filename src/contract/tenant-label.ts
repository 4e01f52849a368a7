// How a tenant is named wherever an operator reads it: the service's metrics (a label), its log lines
// and the spans of a dispatch (`hookwarden.tenant`) all give the same value, so one tenant is found
// by one string in all three. Dependency-free: the library's spans and the service share it.

/** A dispatch without a tenant (an admin token, no --auth, the library without `tenant`). */
const NO_TENANT = 'none';
/**
 * A tenant the configuration does not name (a token's tenant with no hooks of its own: only trusted
 * and policy hooks run for it). One value for all of them, so that no request can create a series.
 */
const OTHER_TENANT = 'other';

/**
 * The tenant's name in metrics, logs and spans: its id when the configuration names it, `other` when
 * it does not, `none` without one. A configured tenant literally named `other` or `none` shares that
 * name.
 */
export function tenantLabel(tenant: string | undefined, named: (id: string) => boolean): string {
  if (tenant === undefined || tenant === '') return NO_TENANT;
  return named(tenant) ? tenant : OTHER_TENANT;
}
