// `hookwarden serve` and `hookwarden serve token`: the flags and the help text. The service itself
// (fastify, pino, prom-client) is imported from ./serve.js when the command runs.

import type { Command } from 'commander';
import { allowHttpUrlOption, collect } from '../collect.js';

/** The server's timeouts and caps (after the flags that say what it serves). */
function serverLimitOptions(command: Command): Command {
  return command
    .option(
      '--drain-timeout <seconds>',
      'after SIGTERM/SIGINT, time running dispatches get to finish (default 30)',
    )
    .option('--headers-timeout <seconds>', 'time a client has to send its request headers (default 10)')
    .option('--request-timeout <seconds>', 'time a client has to send its whole request (default 30)')
    .option('--keep-alive-timeout <seconds>', 'idle keep-alive connections close after this (default 72)')
    .option('--max-header-bytes <n>', 'largest request head; larger ones get 431 (default 16384)')
    .option(
      '--max-event-streams <n>',
      'event streams (GET /v1/events) open at once on this server; past it 429 too_many_streams (default 256)',
    )
    .option(
      '--max-event-streams-per-tenant <n>',
      'event streams one tenant may hold open at once on this server (default 8)',
    )
    .option('--log-level <level>', 'fatal, error, warn, info (one line per request) or debug (default info)');
}

const SERVE_HELP = `
When it listens, it prints one JSON line on stdout: {"listening":"http://HOST:PORT"} (with
"socket" and "metrics" too when --socket and --metrics-listen are given). Logs are JSON lines on stderr: one per request
(route, status, tenant, duration, decision), never a body or a token.

Routes: POST /v1/dispatch/{event} (any token: the token's tenant decides which hooks run; the
verdict is in the body), GET /v1/events, POST /v1/reload and GET /metrics (admin tokens),
GET /healthz, GET /readyz, GET /openapi.json (no token). Without --auth it listens on loopback only
and every caller is the operator (dispatches run without a tenant).
Tenants' command hooks run in namespace isolation (bubblewrap: no network, a read-only root, their
own /tmp, processes and scratch files), whatever they ask for: lower it per tenant with
--tenant-isolation acme=process, or for all with --tenant-isolation contained, or in the policy file
(tenants.<id>.isolation). Policy hooks keep their own isolation. See docs/serve.md.
--socket: the same API on a Unix socket whose callers are the operator (the file system decides who
may connect: the directory must be yours and writable by you alone; a socket left by a server that
is gone is replaced). A dispatch carrying an x-hookwarden-config header (the Claude Code adapter's)
must name this server's config files and root, else 409 config_mismatch, and carry the digest of
the files it loaded as the client reads them now (x-hookwarden-reads; GET /v1/config-reads lists
them), else 409 config_changed: an edited file is never answered for with what was loaded before.
With --socket the server watches its files (--no-watch to not). See docs/claude-code.md.

Traces: with OTEL_EXPORTER_OTLP_ENDPOINT set (and the other standard OTEL_* variables), a span per
dispatch and one per hook go to that OTLP/HTTP collector, in the caller's trace (its traceparent).

Signals: SIGTERM or SIGINT drains (new dispatches get 503, running ones finish within
--drain-timeout, then it exits 0); a second one kills the running hooks and exits 143 or 130.
SIGHUP reloads the configuration and the auth file, like POST /v1/reload.
Exit status: 0 after a drain, 1 when it cannot start (message on stderr).
--check loads everything the same flags name and starts nothing: each problem on stdout with its
file and JSON path (a tenant whose section is broken fails closed alone, and is named), then
"ok: …" (exit 0) or "failed: …" (exit 1). Gate a deploy or a reload on it.
Reference: docs/serve.md.

Examples:
  $ hookwarden serve token --tenant acme --add-to /etc/hookwarden/tokens.json
  $ hookwarden serve --config hooks.json --listen 127.0.0.1:8080
  $ hookwarden serve --check -c /etc/hookwarden/hooks.json -p /etc/hookwarden/policy.json \\
      --auth /etc/hookwarden/tokens.json && systemctl reload hookwarden
  $ hookwarden serve --config .claude/settings.hookwarden.json --socket "$XDG_RUNTIME_DIR/hookwarden.sock"
  $ hookwarden serve -c /etc/hookwarden/hooks.json -p /etc/hookwarden/policy.json \\
      --listen 0.0.0.0:8080 --auth /etc/hookwarden/tokens.json --metrics-listen 127.0.0.1:9464
  $ curl -s -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
      -d '{"tool_name":"Bash","tool_input":{"command":"ls"}}' http://127.0.0.1:8080/v1/dispatch/PreToolUse`;

const TOKEN_HELP = `
The token is 32 random bytes (base64url, prefixed hw_); the server keeps only its SHA-256. Give the
token to its holder and put the entry in the auth file; then reload the server (SIGHUP or POST
/v1/reload) or start it. A lost token cannot be recovered: make a new one and remove the old entry.
Exit status: 0 printed, 1 error.

Examples:
  $ hookwarden serve token --tenant acme
  {"token":"hw_…","entry":{"sha256":"…","tenant":"acme"}}
  $ hookwarden serve token --admin --note ops --add-to /etc/hookwarden/tokens.json`;

export function addServeCommand(program: Command, setExitCode: (code: number) => void): void {
  const serve = serverLimitOptions(
    program
      .command('serve')
      .description(
        'run hookwarden as an HTTP service: POST /v1/dispatch/{event} with a bearer token per tenant',
      )
      .option('-c, --config <file>', 'hooks.json (project scope); repeatable, later ones win', collect)
      .option('--user-config <file>', 'hooks.json loaded as user scope; repeatable', collect)
      .option('-p, --policy <file>', 'policy file; repeatable', collect)
      .addOption(allowHttpUrlOption())
      .option('--root <dir>', 'sandbox root: the working directory of command hooks (default: cwd)')
      .option('-l, --listen <host:port>', 'address of the API, e.g. 127.0.0.1:8080 (port 0: a free port)')
      .option(
        '--socket <path>',
        'also (or only) serve the API on a Unix socket: mode 0600, in a directory only you can write; no token (the Claude Code adapter forwards to it)',
      )
      .option(
        '--auth <file>',
        'auth file {"tokens": [entry…]} (entries from `serve token`); required off loopback',
      )
      .option(
        '--metrics-listen <host:port>',
        'second address serving /metrics, /healthz, /readyz without a token',
      )
      .option('--audit <file.jsonl>', 'append one JSON line per executed hook (metadata only)')
      .option(
        '--audit-key <file>',
        'key the --audit file with HMAC-SHA-256 (mode 0600 file, from `audit keygen`)',
      )
      .option(
        '--audit-required',
        'a dispatch whose --audit records cannot be written (after retries) denies on deny-capable events',
      )
      .option(
        '--decision-log <url>',
        'also send the audit records, with each verdict, to this HTTP sink in gzipped batches (OPA decision-log shape; never delays or changes a verdict). Its credentials: $HOOKWARDEN_DECISION_LOG_HEADERS (name=value,…), not the command line',
      )
      .option(
        '--watch',
        'reload the configuration when its files change (last-known-good); the default with --socket',
      )
      .option(
        '--no-watch',
        'with --socket: do not watch (a client still never gets an answer for changed files)',
      )
      .option(
        '--queue <redis-url>',
        'Redis mode: async hooks become BullMQ jobs shared by every replica, tenant rates are global (e.g. redis://127.0.0.1:6379; docs/scaling.md). A URL with a password: set $HOOKWARDEN_QUEUE_URL instead (the command line is visible to other users)',
      )
      .option('--queue-prefix <prefix>', 'Redis mode: prefix of every key (default hookwarden)')
      .option(
        '--tenant-isolation <[tenant=]level>',
        "least isolation of tenants' command hooks: process, contained or namespace (default namespace); tenant=level for one tenant; repeatable",
        collect,
      ),
  )
    .option(
      '--check',
      'judge everything this command line would load (config, policy, tenants, packs, JS hooks, --auth) without starting: every problem on stdout, exit 1 on any (a deploy gate)',
    )
    .addHelpText('after', SERVE_HELP)
    .action(async (flags) => {
      if (flags.check === true) {
        const { runServeCheck } = await import('./serve-check.js');
        setExitCode(await runServeCheck(flags));
        return;
      }
      const { runServe } = await import('./serve.js');
      setExitCode(await runServe(flags));
    });
  registerServeToken(serve, setExitCode);
}

function registerServeToken(serve: Command, setExitCode: (code: number) => void): void {
  serve
    .command('token')
    .description('make a bearer token: prints {token, entry}; only the entry goes into the --auth file')
    .option('--tenant <id>', 'the tenant the token speaks for (letters, digits, _ . -)')
    .option('--admin', 'an operator token: reload, metrics, and dispatch without a tenant')
    .option('--note <text>', 'a note kept in the entry (e.g. who holds the token)')
    .option('--add-to <file>', 'also add the entry to this auth file (created with mode 0600 if missing)')
    .addHelpText('after', TOKEN_HELP)
    .action(async (flags) => {
      const { runServeToken } = await import('./serve-token.js');
      setExitCode(await runServeToken(flags));
    });
}
