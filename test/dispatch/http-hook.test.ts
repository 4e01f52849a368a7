// http hooks against real HTTP servers on 127.0.0.1 (started here on port 0): what is sent, how each
// kind of answer is read, and that nothing outlives a dispatch or the executor.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { commandStdin } from '../../src/dispatch/command-hook.js';
import { createExecutor, type DispatchResult, type ExecutorOptions } from '../../src/index.js';
import { OPEN_HTTP_REQUESTS } from '../../src/pool/http-lane.js';
import type { CommandHookDefinition } from '../../src/registry/hook-definition.js';
import { hooksOn, input, withExecutor } from '../helpers/fixture.js';
import { type HookServer, json, startHookServer } from '../helpers/hook-server.js';

const TOOL = { toolName: 'Bash', toolInput: { command: 'rm -rf build' } };

/** The host variables these tests' headers name: a project file's hooks read them only when granted. */
const GRANT = {
  grants: {
    project: {
      inheritEnv: ['HW_TEST_DB', 'HW_TEST_OTHER', 'HW_TEST_REGION', 'HW_TEST_TEAM', 'HW_TEST_TOKEN'],
    },
  },
};

/** One PreToolUse http hook to `server` (path /hook), the server's origin allowed. */
function options(server: HookServer, hook: Record<string, unknown> = {}, extra: ExecutorOptions = {}) {
  const policy =
    extra.policy === undefined ? [] : Array.isArray(extra.policy) ? extra.policy : [extra.policy];
  return {
    config: hooksOn('PreToolUse', [{ type: 'http', url: `${server.origin}/hook`, ...hook }], {
      matcher: 'Bash',
    }),
    allowedHttpHookUrls: [`${server.origin}/*`],
    ...extra,
    policy: [GRANT, ...policy],
  } satisfies ExecutorOptions;
}

async function dispatchOnce(
  server: HookServer,
  hook: Record<string, unknown> = {},
  extra: ExecutorOptions = {},
) {
  return withExecutor(options(server, hook, extra), async (hw, warnings) => {
    const result = await hw.dispatch('PreToolUse', input(TOOL));
    return { result, warnings };
  });
}

const setEnv: string[] = [];
function env(name: string, value: string): void {
  process.env[name] = value;
  setEnv.push(name);
}
afterEach(() => {
  for (const n of setEnv.splice(0)) delete process.env[n];
});

describe('an http hook', () => {
  it('POSTs as JSON the very input a command hook registered under the event reads on stdin', async () => {
    const server = await startHookServer((_req, res) => res.writeHead(204).end());
    const { result } = await dispatchOnce(server);
    expect(result.hooks[0]).toMatchObject({ type: 'http', outcome: 'proceed' });
    const req = await server.nextRequest();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/hook');
    expect(req.headers['content-type']).toBe('application/json');
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({
      event: 'BeforeTool',
      hook_event_name: 'PreToolUse',
      session_id: 's1',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf build' },
      toolName: 'Bash',
    });
    // The same bytes a command hook's stdin would carry for this input.
    const asCommand = { command: { claudeEvent: 'PreToolUse' } } as CommandHookDefinition;
    const { hook_event_name: _e, ...rest } = body;
    expect(JSON.parse(commandStdin(asCommand, rest, JSON.stringify(rest)))).toEqual(body);
  });

  it.each([
    ['a hookwarden deny', { decision: 'deny', reason: 'no rm -rf' }, 'deny', 'no rm -rf'],
    [
      "Claude Code's deny",
      {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'nope',
        },
      },
      'deny',
      'nope',
    ],
    ['an allow', { decision: 'allow', reason: 'fine' }, 'allow', 'fine'],
    [
      "Claude Code's ask",
      {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'ask',
          permissionDecisionReason: 'check',
        },
      },
      'ask',
      'check',
    ],
    ['a top-level block', { decision: 'block', reason: 'blocked' }, 'deny', 'blocked'],
  ])(
    'answering %s with a 2xx JSON object is read like JSON stdout',
    async (_name, body, decision, reason) => {
      const server = await startHookServer((_req, res) => json(res, body));
      const { result } = await dispatchOnce(server);
      expect(result).toMatchObject({ decision, reason });
      expect(result.hooks[0]).toMatchObject({ type: 'http', outcome: decision });
    },
  );

  it('answering a 2xx with an empty body (or only whitespace) has no opinion', async () => {
    for (const [status, body] of [
      [200, ''],
      [204, ''],
      [200, ' \n'],
    ] as const) {
      const server = await startHookServer((_req, res) => res.writeHead(status).end(body));
      const { result } = await dispatchOnce(server);
      expect(result.decision).toBe('passthrough');
      expect(result.hooks[0]).toMatchObject({ outcome: 'proceed' });
      expect(result.hooks[0]).not.toHaveProperty('error');
    }
  });

  const FAILING: [string, (res: ServerResponse) => void, string, unknown][] = [
    ['HTTP 500', (res) => json(res, { decision: 'deny' }, 500), 'http_status', { status: 500 }],
    ['HTTP 404', (res) => res.writeHead(404).end('nope'), 'http_status', { status: 404 }],
    ['a plain-text body', (res) => res.end('all good'), 'invalid_output', undefined],
    ['a JSON array', (res) => res.end('[1,2]'), 'invalid_output', undefined],
    ['JSON null', (res) => res.end('null'), 'invalid_output', undefined],
    ['a JSON number', (res) => res.end('42'), 'invalid_output', undefined],
    ['an invalid field', (res) => json(res, { decision: 'perhaps' }), 'invalid_output', undefined],
  ];
  it.each(FAILING)(
    'answering %s is a failure: skipped by default, deny with onFailure "block"',
    async (_name, answer, code, details) => {
      const server = await startHookServer((_req, res) => answer(res));
      const open = await dispatchOnce(server);
      expect(open.result.decision).toBe('passthrough');
      expect(open.result.hooks[0]).toMatchObject({ outcome: 'error', error: { code } });
      if (details !== undefined) expect(open.result.hooks[0]!.error!.details).toEqual(details);
      const closed = await dispatchOnce(server, { name: 'remote-guard', onFailure: 'block' });
      expect(closed.result).toMatchObject({
        decision: 'deny',
        decidedBy: 'remote-guard',
        reason: expect.stringContaining(`"remote-guard" failed (${code})`),
      });
    },
  );

  it('never follows a redirect: a 3xx is a failure that names where it pointed', async () => {
    const server = await startHookServer((req, res) => {
      if (req.path === '/hook') res.writeHead(302, { location: '/elsewhere' }).end();
      else json(res, { decision: 'allow' });
    });
    const { result } = await dispatchOnce(server);
    expect(result.decision).toBe('passthrough');
    expect(result.hooks[0]!.error).toMatchObject({
      code: 'http_status',
      message: expect.stringContaining(`redirected to ${server.origin}/elsewhere`),
      details: { status: 302, location: `${server.origin}/elsewhere` },
    });
    expect(server.requests.map((r) => r.path)).toEqual(['/hook']);
  });

  it('gives up a body past maxOutputBytes, announced or streamed', async () => {
    const big = JSON.stringify({ additionalContext: 'x'.repeat(5000) });
    const announced = await startHookServer((_req, res) => json(res, JSON.parse(big)));
    const r1 = await dispatchOnce(announced, { maxOutputBytes: 1000 });
    expect(r1.result.hooks[0]).toMatchObject({
      outcome: 'limit',
      error: { code: 'output_limit', details: { limitBytes: 1000, actualBytes: big.length } },
    });
    // Chunked, without a length, and never ending: the cap, not the end of the body, stops the read.
    const endless = await startHookServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(big);
    });
    const r2 = await dispatchOnce(endless, { maxOutputBytes: 1000 });
    expect(r2.result.hooks[0]).toMatchObject({ outcome: 'limit', error: { code: 'output_limit' } });
    await endless.allClosed();
  });

  it('that does not answer by its timeout is a timeout, and its connection is closed', async () => {
    const server = await startHookServer(() => {}); // never answers
    const { result } = await dispatchOnce(server, { timeout: 0.3 });
    expect(result.hooks[0]).toMatchObject({ outcome: 'timeout', error: { code: 'timeout' } });
    await server.allClosed();
    expect(OPEN_HTTP_REQUESTS.size).toBe(0);
  });

  it('whose server is gone fails with http_error naming the cause', async () => {
    const server = await startHookServer(() => {});
    await server.close();
    const { result } = await dispatchOnce(server);
    expect(result.hooks[0]).toMatchObject({
      outcome: 'error',
      error: { code: 'http_error', details: { cause: 'ECONNREFUSED' } },
    });
  });

  it('leaves no connection open after its answer (each request has its own)', async () => {
    const server = await startHookServer((_req, res) => json(res, { decision: 'allow' }));
    await withExecutor(options(server), async (hw) => {
      for (let i = 0; i < 3; i++)
        expect((await hw.dispatch('PreToolUse', input(TOOL))).decision).toBe('allow');
      await server.allClosed();
      expect(server.openConnections()).toBe(0);
    });
    expect(server.requests.every((r) => r.headers.connection === 'close')).toBe(true);
  });

  it('counts against limits.maxHookCalls like any hook', async () => {
    const server = await startHookServer((_req, res) => res.writeHead(204).end());
    const config = hooksOn('PreToolUse', [
      { type: 'http', url: `${server.origin}/a` },
      { type: 'http', url: `${server.origin}/b` },
    ]);
    await withExecutor(
      { config, allowedHttpHookUrls: [`${server.origin}/*`], limits: { maxHookCalls: 1 } },
      async (hw) => {
        const r = await hw.dispatch('PreToolUse', input(TOOL));
        expect(r.hooks.map((h) => h.outcome)).toEqual(['proceed', 'not-run']);
        expect(r.hooks[1]!.error!.code).toBe('max_hook_calls');
      },
    );
    expect(server.requests.map((r) => r.path)).toEqual(['/a']);
  });

  it('is recorded in the audit (type "http", metadata only) and announced by hook.started', async () => {
    const server = await startHookServer((_req, res) =>
      json(res, { decision: 'deny', reason: 'secret reason' }),
    );
    const records: Record<string, unknown>[] = [];
    const started: string[] = [];
    await withExecutor(
      options(server, { name: 'remote' }, { audit: (r) => records.push(r as never) }),
      async (hw) => {
        hw.on('hook.started', (e) => started.push(`${e.type}:${e.hookId}`));
        await hw.dispatch('PreToolUse', input(TOOL));
      },
    );
    expect(started).toEqual(['http:remote']);
    expect(records.find((r) => r.hookId === 'remote')).toMatchObject({ type: 'http', outcome: 'deny' });
    expect(JSON.stringify(records)).not.toContain('secret reason');
  });
});

describe("an http hook's headers", () => {
  function headersOf(server: HookServer) {
    return server.requests[0]!.headers;
  }

  it('fill $NAME (and its braced form) only for the allowedEnvVars; other names are sent empty', async () => {
    env('HW_TEST_TEAM', 'blue');
    env('HW_TEST_REGION', 'eu');
    env('HW_TEST_OTHER', 'not-for-you');
    const server = await startHookServer((_req, res) => res.writeHead(204).end());
    await dispatchOnce(server, {
      headers: {
        'X-Team': 'team=$HW_TEST_TEAM',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's braced header variable
        'X-Where': '${HW_TEST_REGION}/x',
        'X-Other': '[$HW_TEST_OTHER]',
      },
      allowedEnvVars: ['HW_TEST_TEAM', 'HW_TEST_REGION'],
    });
    expect(headersOf(server)).toMatchObject({ 'x-team': 'team=blue', 'x-where': 'eu/x', 'x-other': '[]' });
  });

  it('never carry a secret-looking variable, or a value that is a credential, unless the policy names it', async () => {
    env('HW_TEST_TOKEN', 'tok-123456');
    env('HW_TEST_DB', 'postgres://app:hunter2@db.internal/app');
    const hook = {
      headers: { Authorization: 'Bearer $HW_TEST_TOKEN', 'X-Db': '$HW_TEST_DB' },
      allowedEnvVars: ['HW_TEST_TOKEN', 'HW_TEST_DB'],
    };
    const plain = await startHookServer((_req, res) => res.writeHead(204).end());
    const { warnings } = await dispatchOnce(plain, hook);
    expect(headersOf(plain)).toMatchObject({ authorization: 'Bearer', 'x-db': '' });
    expect(JSON.stringify(plain.requests)).not.toContain('tok-123456');
    expect(JSON.stringify(plain.requests)).not.toContain('hunter2');
    expect(warnings.join('\n')).toContain('"HW_TEST_TOKEN" looks like a secret and is sent empty');
    expect(warnings.join('\n')).toContain('the current value of "HW_TEST_DB" carries a credential');
    // The operator vouches for it: the policy's httpHookAllowedEnvVars names it.
    const vouched = await startHookServer((_req, res) => res.writeHead(204).end());
    await dispatchOnce(vouched, hook, { httpHookAllowedEnvVars: ['HW_TEST_TOKEN'] });
    expect(headersOf(vouched)).toMatchObject({ authorization: 'Bearer tok-123456', 'x-db': '' });
  });

  it("are limited by the policy's httpHookAllowedEnvVars (an outer limit)", async () => {
    env('HW_TEST_TEAM', 'blue');
    env('HW_TEST_REGION', 'eu');
    const server = await startHookServer((_req, res) => res.writeHead(204).end());
    const { warnings } = await dispatchOnce(
      server,
      {
        headers: { 'X-A': '$HW_TEST_TEAM', 'X-B': '$HW_TEST_REGION' },
        allowedEnvVars: ['HW_TEST_TEAM', 'HW_TEST_REGION'],
      },
      { httpHookAllowedEnvVars: ['HW_TEST_TEAM'] },
    );
    expect(headersOf(server)).toMatchObject({ 'x-a': 'blue', 'x-b': '' });
    expect(warnings.join('\n')).toContain(`"HW_TEST_REGION" is not in the policy's "httpHookAllowedEnvVars"`);
  });

  // A line break would split the header; the others Node refuses to send (it would throw mid-dispatch).
  it.each([
    ['a line break', 'blue\r\nX-Injected: 1', 'holds a line break'],
    ['a control character', 'a\u0001b', 'holds a control character or a character beyond Latin-1'],
    ['DEL', 'a\u007fb', 'holds a control character or a character beyond Latin-1'],
    ['a character beyond Latin-1', 'price \u20ac', 'holds a control character or a character beyond Latin-1'],
  ])('with %s in a variable are not sent at all, and the dispatch answers', async (_what, value, why) => {
    env('HW_TEST_TEAM', value);
    const server = await startHookServer((_req, res) => res.writeHead(204).end());
    const { result } = await dispatchOnce(server, {
      headers: { 'X-Team': '$HW_TEST_TEAM' },
      allowedEnvVars: ['HW_TEST_TEAM'],
      onError: 'deny',
    });
    expect(result.decision).toBe('deny');
    expect(result.hooks[0]).toMatchObject({
      outcome: 'not-run',
      error: { code: 'http_error', message: expect.stringContaining(`$HW_TEST_TEAM ${why}`) },
    });
    expect(server.requests).toEqual([]);
  });

  it('cannot set Host, Content-Type or framing headers', async () => {
    const server = await startHookServer((_req, res) => res.writeHead(204).end());
    const { warnings } = await dispatchOnce(server, {
      headers: {
        Host: 'evil.test',
        'Content-Type': 'text/plain',
        'Transfer-Encoding': 'chunked',
        'X-Ok': 'yes',
      },
    });
    expect(headersOf(server)).toMatchObject({
      host: `127.0.0.1:${server.port}`,
      'content-type': 'application/json',
      'x-ok': 'yes',
    });
    expect(warnings.filter((w) => w.includes('is set by hookwarden'))).toHaveLength(3);
  });
});

describe('when an http hook answers, its connection is already closed', () => {
  // A server that keeps the socket open after its answer, or drips, or floods: the dispatch returns
  // only once the request's connection is closed on hookwarden's side.
  it.each([
    [
      'a 2xx answer from a server that ignores Connection: close',
      (_req: unknown, res: ServerResponse) =>
        res.socket?.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}'),
      {},
      'proceed',
    ],
    [
      'a body that drips one byte at a time past the timeout',
      (_req: unknown, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        const drip = setInterval(() => res.write(' '), 20);
        res.on('close', () => clearInterval(drip));
      },
      { timeout: 0.3 },
      'timeout',
    ],
    [
      'a body that never ends, past its cap',
      (_req: unknown, res: ServerResponse) => {
        res.writeHead(200);
        const flood = setInterval(() => res.write(Buffer.alloc(16_384, 32)), 1);
        res.on('close', () => clearInterval(flood));
      },
      { maxOutputBytes: 100_000 },
      'limit',
    ],
    [
      'a 3xx',
      (_req: unknown, res: ServerResponse) => res.writeHead(302, { location: '/x' }).end(),
      {},
      'error',
    ],
  ] as const)('%s', async (_what, handler, hook, outcome) => {
    const server = await startHookServer(handler);
    await withExecutor(options(server, hook), async (hw) => {
      const result = await hw.dispatch('PreToolUse', input(TOOL));
      expect(result.hooks[0]).toMatchObject({ outcome });
      // Before close(): the dispatch itself left nothing open.
      expect(OPEN_HTTP_REQUESTS.size).toBe(0);
    });
    await server.allClosed();
  });
});

describe('cancelling an http hook', () => {
  it("the dispatch's abort signal aborts the request: the server sees its connection closed", async () => {
    const server = await startHookServer(() => {});
    await withExecutor(options(server), async (hw) => {
      const abort = new AbortController();
      const pending = hw.dispatch('PreToolUse', input(TOOL), { signal: abort.signal });
      await server.nextRequest();
      abort.abort();
      const r: DispatchResult = await pending;
      expect(r).toMatchObject({ decision: 'deny', interrupted: true });
      await server.allClosed();
    });
  });

  it('close() aborts requests in flight and leaves no connection behind', async () => {
    const server = await startHookServer(() => {});
    const hw = await createExecutor({ ...options(server), onWarning: () => {} });
    const pending = hw.dispatch('PreToolUse', input(TOOL)).catch((e: unknown) => e);
    await server.nextRequest();
    expect(OPEN_HTTP_REQUESTS.size).toBe(1);
    await hw.close();
    expect(OPEN_HTTP_REQUESTS.size).toBe(0);
    await server.allClosed();
    const r = (await pending) as DispatchResult;
    expect(r.hooks[0]).toMatchObject({ error: { code: 'pool_closed' } });
  });
});
