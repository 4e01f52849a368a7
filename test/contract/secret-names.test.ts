// The `inheritEnv` secret filter: the names and values it must refuse, and the ones users need that
// it must keep passing.
import { describe, expect, it } from 'vitest';
import { isSecretName, secretValueKind } from '../../src/contract/secret-names.js';

const REFUSED_NAMES = [
  // the original words
  'GITHUB_TOKEN',
  'OPENAI_API_KEY',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SESSION_TOKEN',
  'PGPASSWORD',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'NPM_CONFIG__AUTH',
  'SSH_AUTH_SOCK',
  'SESSION_COOKIE',
  'TLS_PRIVATE_KEY_PATH',
  'HOOKWARDEN_AUDIT_KEY',
  'hookwarden_anything',
  // what the old filter let through
  'GH_PAT',
  'GITHUB_PAT',
  'AZURE_DEVOPS_PAT',
  'MYSQL_PWD',
  'DBPWD',
  'SMTP_PW',
  'SENTRY_DSN',
  'DATABASE_DSN',
  'RABBITMQ_DEFAULT_PASS',
  'PGPASS',
  'PGPASSFILE',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'DB_CONN',
  'AZURE_STORAGE_CONNECTION_STRING',
  'SQL_CONNECTIONSTRING',
  'REDIS_CONNSTR',
  'FLASK_SESSION_SALT',
  'XDG_SESSION_ID',
  'S3_SIGNATURE',
  'GPG_SIGNING_SUBKEY',
  'CLIENT_CERT',
  'KUBE_CLIENT_CERTIFICATE_DATA',
  'SLACK_WEBHOOK_URL',
  'CI_JOB_JWT',
  'WEBHOOK_HMAC',
  'MFA_TOTP',
  'BEARER',
  'WALLET_MNEMONIC',
  'KRB5CCNAME',
  'HTTP_AUTHORIZATION',
  // an OTLP exporter's headers hold the collector's API key (issue 43)
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'otelExporterOtlpHeaders',
  // spellings
  'githubToken',
  'dbPassword',
  'ghPat',
  'apikey',
];

const KEPT_NAMES = [
  'PATH',
  'MANPATH',
  'PYTHONPATH',
  'LANG',
  'LC_ALL',
  'TERM',
  'COLORTERM',
  'TERM_PROGRAM',
  'NO_COLOR',
  'FORCE_COLOR',
  'CI',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GITHUB_ACTIONS',
  'GITHUB_REPOSITORY',
  'GITHUB_SHA',
  'GITHUB_REF',
  'GITHUB_RUN_ID',
  'RUNNER_OS',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'USER',
  'LOGNAME',
  'SHELL',
  'TZ',
  'NODE_ENV',
  'JAVA_HOME',
  'GOPATH',
  'VIRTUAL_ENV',
  'XDG_CONFIG_HOME',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'REQUESTS_CA_BUNDLE',
  'DATABASE_URL',
  'REDIS_URL',
  'TOKENIZERS_PARALLELISM',
  'PWDEBUG',
  'PW_TEST_HTML_REPORT_OPEN',
  'KEYBOARD_LAYOUT',
  'PROXY_BYPASS',
  'DEBIAN_FRONTEND',
  'COMPOSE_PROJECT_NAME',
];

const REFUSED_VALUES: [string, string][] = [
  ['postgres://app:hunter2@db.internal:5432/app', 'a URL with user:password@'],
  ['mysql://root:p%40ss@127.0.0.1/db', 'a URL with user:password@'],
  ['redis://:s3cret@cache:6379/0', 'a URL with user:password@'],
  ['http://proxyuser:proxypass@proxy.corp:3128', 'a URL with user:password@'],
  ['socks5h://u:p@proxy:1080', 'a URL with user:password@'],
  ['mongodb+srv://admin:pw@cluster0.example.net/db?retryWrites=true', 'a URL with user:password@'],
  [
    'https://x-access-token:ghs_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r.git',
    'a URL with user:password@',
  ],
  ['https://0123456789abcdef0123456789abcdef@o123.ingest.sentry.io/456', 'a URL with a token as its user'],
  ['postgres://db.internal/app?sslmode=require&password=hunter2', 'a password, token or signature parameter'],
  ['Server=tcp:db;Database=app;User Id=sa;Password=hunter2;', 'a password, token or signature parameter'],
  [
    'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abc123==;EndpointSuffix=core.windows.net',
    'a password, token or signature parameter',
  ],
  [
    'https://bucket.s3.amazonaws.com/o?X-Amz-Credential=AK%2F&X-Amz-Signature=deadbeef',
    'a password, token or signature parameter',
  ],
  ['https://api.example.com/v1?access_token=abc123', 'a password, token or signature parameter'],
  ['ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789', 'a GitHub token'],
  ['github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', 'a GitHub token'],
  ['glpat-abcdefghij0123456789', 'a GitLab token'],
  ['xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', 'a Slack token'],
  ['xoxp-1234567890-abcdef', 'a Slack token'],
  ['https://hooks.slack.com/services/T000/B000/XXXXXXXX', 'a Slack webhook URL'],
  ['https://discord.com/api/webhooks/123/abc', 'a Discord webhook URL'],
  ['sk-proj-abcdefghijklmnopqrstuvwxyz012345', 'an API secret key (sk-…)'],
  ['sk-ant-api03-abcdefghijklmnopqrstuvwxyz', 'an API secret key (sk-…)'],
  ['sk_live_abcdefghij0123456789', 'a Stripe secret key'],
  ['AKIAIOSFODNN7EXAMPLE', 'an AWS access key id'],
  ['AIzaSyA-abcdefghijklmnopqrstuvwxyz012345', 'a Google API key'],
  ['npm_abcdefghijklmnopqrstuvwxyz0123456789', 'an npm token'],
  ['hf_abcdefghijklmnopqrstuvwxyz01234567', 'a Hugging Face token'],
  [
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    'a JSON Web Token',
  ],
  [
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----',
    'a PEM private key',
  ],
  ['-----BEGIN RSA PRIVATE KEY-----\nMIIE', 'a PEM private key'],
  ['-----BEGIN PRIVATE KEY-----\nMIIE', 'a PEM private key'],
  ['Authorization: Bearer abcdefghijklmnop1234', 'an Authorization header value'],
  ['http.extraheader=AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hz', 'an Authorization header value'],
];

const KEPT_VALUES = [
  '',
  'vi',
  'xterm-256color',
  'C.UTF-8',
  '/usr/local/bin:/usr/bin:/bin',
  'http://proxy.corp:3128',
  'https://proxy.corp:3128/',
  'localhost,127.0.0.1,.corp',
  'postgres://db.internal:5432/app',
  'postgres://localhost/dev?sslmode=disable',
  'ssh://git@github.com/org/repo.git',
  'git@github.com:org/repo.git',
  'https://github.com/org/repo',
  'Jane Doe <jane@example.com>',
  '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
  '/etc/ssl/certs/ca-certificates.crt',
  '-----BEGIN CERTIFICATE-----\nMIIB',
  'true',
  '--max-old-space-size=4096',
  'skip-this',
  'sk-short',
];

describe('the inheritEnv secret filter', () => {
  it.each(REFUSED_NAMES)('refuses the name %s', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each(KEPT_NAMES)('keeps passing the name %s', (name) => {
    expect(isSecretName(name)).toBe(false);
  });

  it.each(REFUSED_VALUES)('refuses the value %s as %s', (value, kind) => {
    expect(secretValueKind(value)).toBe(kind);
  });

  it.each(KEPT_VALUES)('keeps passing the value %j', (value) => {
    expect(secretValueKind(value)).toBeUndefined();
  });
});

describe('secretValueKind on long values', () => {
  // A dispatch's caller env of 1 MiB (found by the invariant-4 property, seed 20261202, case 1019):
  // the URL shapes' unbounded scheme backtracked at every start, and the dispatch took minutes.
  it('reads a long value in linear time, and still finds a credential at its end', () => {
    const long = 'x'.repeat(1 << 20);
    const started = performance.now();
    expect(secretValueKind(long)).toBeUndefined();
    expect(secretValueKind(`${long} redis://:hunter2@db`)).toBe('a URL with user:password@');
    expect(secretValueKind(`${long}://${'t'.repeat(40)}@github.com`)).toBe('a URL with a token as its user');
    // Only a hang fails this bound (the quadratic version took minutes; linear is milliseconds).
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
