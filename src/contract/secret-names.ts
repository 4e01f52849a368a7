// Which host variables never reach a hook through `inheritEnv` (docs/security.md): names that look like
// they hold a secret, and values that carry a credential whatever the name. Dependency-free: the
// config loader checks names (and the values present) at load, and the subprocess runner checks
// names and values again at spawn, when the values it would pass are known. Explicit `env` values
// are the config author's own choice and are not filtered.

/**
 * Words that mark a secret anywhere in a name, case-insensitively (`githubToken`, `PGPASSFILE`,
 * `SSH_AUTH_SOCK`, `SENTRY_DSN`). `AUTH` does not match `AUTHOR` (GIT_AUTHOR_NAME) but does match
 * `AUTHORIZATION`; `PASS` does not match `BYPASS`; `KEY` does not match `KEYBOARD`; `TOKEN` does not
 * match `TOKENIZERS`.
 */
const SECRET_NAME =
  /KEY(?!BOARD)|TOKEN(?!IZ)|SECRET|(?<!BY)PASS|CRED|AUTH(?!OR(?!I[SZ]))|COOKIE|PRIVATE|SESSION|SIGNATURE|SIGNING|CERT|DSN|CONNECTION_?STR|WEBHOOK|BEARER|JWT|HMAC|MNEMONIC|KRB5CC/i;

/**
 * Words that mark a secret only as a whole word of the name (`GH_PAT` but not `PATH`). Besides
 * these, a name whose last word ends in `PWD` (`MYSQL_PWD`, `DBPWD`) or is `PW` (`SMTP_PW`) is
 * secret; `PWDEBUG` and `PW_TEST_…` (Playwright) are not.
 */
const SECRET_NAME_WORDS: readonly string[] = Object.freeze([
  'PAT',
  'PWD',
  'CONN',
  'CONNSTR',
  'SALT',
  'OTP',
  'TOTP',
  'HOTP',
  // Headers sent with every request of an exporter (OTEL_EXPORTER_OTLP_HEADERS, …_TRACES_HEADERS):
  // where a collector's API key lives.
  'HEADERS',
]);

/**
 * Well-known names that match a secret word but name a public trust store (a CA bundle path), which
 * hooks behind a TLS-intercepting proxy need. Their values are still checked.
 */
const PUBLIC_NAMES: readonly string[] = Object.freeze([
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
]);

/** hookwarden's own variables are never inherited by hooks. */
export const OWN_PREFIX = 'HOOKWARDEN_';

const WORDS = new Set(SECRET_NAME_WORDS);
const PUBLIC = new Set(PUBLIC_NAMES);

/** The words of a name: split at `_`, `-`, `.` and camelCase humps, upper-cased. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .split(/[^A-Z0-9]+/);
}

export function isSecretName(name: string): boolean {
  if (name.toUpperCase().startsWith(OWN_PREFIX)) return true;
  if (PUBLIC.has(name)) return false;
  if (SECRET_NAME.test(name)) return true;
  const words = nameWords(name);
  const last = words.at(-1) ?? '';
  return words.some((w) => WORDS.has(w)) || last.endsWith('PWD') || last === 'PW';
}

/** Value shapes that carry a credential, with what to call them (the value itself is never shown). */
const SECRET_VALUES: readonly (readonly [RegExp, string])[] = Object.freeze([
  // scheme://user:password@host (an empty user is fine: redis://:password@host). The scheme is at
  // most 32 characters: an unbounded `[a-z0-9+.-]*` backtracks over a long run of letters at every
  // start, quadratic in the value (a 1 MiB variable took minutes).
  [/[a-z][a-z0-9+.-]{0,31}:\/\/[^\s/?#@:]*:[^\s/?#@]+@/i, 'a URL with user:password@'],
  // scheme://<token>@host: a long user name is a token (GitHub's https://<token>@github.com, Sentry DSNs)
  [/[a-z][a-z0-9+.-]{0,31}:\/\/[A-Za-z0-9_.~%-]{20,}@/i, 'a URL with a token as its user'],
  // key=value secrets in query strings and connection strings (…?password=…, Password=…;)
  [
    /(?:^|[?&;,\s])(?:password|passwd|pwd|pass|secret|client_secret|token|access_token|refresh_token|id_token|api_?key|accountkey|sharedaccesskey|sharedaccesssignature|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token)\s*=\s*[^\s&;]/i,
    'a password, token or signature parameter',
  ],
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/, 'a PEM private key'],
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/, 'a JSON Web Token'],
  [/\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/-]{12,}=*/i, 'an Authorization header value'],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/, 'a GitHub token'],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/, 'a GitHub token'],
  [/\bglpat-[A-Za-z0-9_-]{20,}/, 'a GitLab token'],
  [/\bxox[abposre]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/\bxapp-\d-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/hooks\.slack\.com\/(?:services|workflows|triggers)\//, 'a Slack webhook URL'],
  [/discord(?:app)?\.com\/api\/webhooks\//, 'a Discord webhook URL'],
  [/\bsk-[A-Za-z0-9_-]{20,}/, 'an API secret key (sk-…)'],
  [/\b[rs]k_(?:live|test)_[A-Za-z0-9]{10,}/, 'a Stripe secret key'],
  [/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/, 'an AWS access key id'],
  [/\bAIza[0-9A-Za-z_-]{35}/, 'a Google API key'],
  [/\bnpm_[A-Za-z0-9]{36}\b/, 'an npm token'],
  [/\bpypi-[A-Za-z0-9_-]{40,}/, 'a PyPI token'],
  [/\bhf_[A-Za-z0-9]{30,}/, 'a Hugging Face token'],
  [/\bAGE-SECRET-KEY-1[0-9A-Z]{50,}/, 'an age secret key'],
]);

/** What credential `value` carries (e.g. "a URL with user:password@"), or undefined. */
export function secretValueKind(value: string): string | undefined {
  for (const [shape, kind] of SECRET_VALUES) if (shape.test(value)) return kind;
  return undefined;
}
