// Tenant ids: validated before they are used anywhere (they name scratch directories and queues).
import { renderValue } from '../contract/messages.js';

/** 1-64 letters, digits, `_ . -`, starting with a letter or digit. */
export const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Why a tenant id is refused, or undefined when it is valid (no path characters, no `..`). */
export function tenantIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string' || !TENANT_ID.test(id) || id.includes('..')) {
    return `expected a tenant id of 1-64 letters, digits, _ . - (starting with a letter or digit, no "/" or ".."), got ${renderValue(id)}`;
  }
  return undefined;
}
