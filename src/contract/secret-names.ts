// Which environment variable names never reach a hook (DESIGN §5). Dependency-free: the subprocess
// runner applies it again at spawn time.

/** Names that look like they hold a secret. */
export const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|AUTH|COOKIE|PRIVATE/i;

/** hookwarden's own variables are never inherited by hooks. */
export const OWN_PREFIX = 'HOOKWARDEN_';

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) || name.toUpperCase().startsWith(OWN_PREFIX);
}
