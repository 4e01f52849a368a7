// The server behind generated http hooks: a real HTTP server on 127.0.0.1 that answers each hook as
// its behaviour says and notes the body it was sent. A request under /denied/ was made for a URL no
// allow list admits: that must never happen (a lower file cannot widen the list).

import { type HookServer, startHookServer } from '../helpers/hook-server.js';
import type { Behaviour } from './gen/answers.js';
import { answerOf } from './gen/answers.js';
import { seenValue } from './gen/digest.js';
import { noteInput, type Seen } from './observe.js';

export class HttpHooks {
  readonly #hooks = new Map<string, { behaviour: Behaviour; cc: string | undefined }>();
  readonly #pending: { key: string; behaviour: Behaviour | undefined; body: string }[] = [];
  readonly denied: string[] = [];
  readonly server: HookServer;

  private constructor(server: HookServer) {
    this.server = server;
  }

  static async start(): Promise<HttpHooks> {
    let self: HttpHooks | undefined;
    const server = await startHookServer((req, res) => self!.answer(req.path, req.body, res));
    self = new HttpHooks(server);
    return self;
  }

  /** The URL of hook `key` of case `tag`; `admitted: false` gives one under /denied/. */
  url(tag: string, key: string, admitted: boolean): string {
    return `${this.server.origin}/${admitted ? 'h' : 'denied'}/${tag}/${key}`;
  }

  /** The allow-list pattern the rigs give (admits /h/ only). */
  get pattern(): string {
    return `${this.server.origin}/h/*`;
  }

  register(tag: string, key: string, behaviour: Behaviour, cc: string | undefined): void {
    this.#hooks.set(`${tag}/${key}`, { behaviour, cc });
  }

  forget(tag: string): void {
    for (const k of [...this.#hooks.keys()]) if (k.startsWith(`${tag}/`)) this.#hooks.delete(k);
  }

  /** Notes the bodies received since the last call. */
  take(seen: Seen): void {
    for (const { key, behaviour, body } of this.#pending.splice(0)) {
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(body) as Record<string, unknown>;
      } catch {
        continue;
      }
      noteInput(seen, key, behaviour, input, JSON.stringify(seenValue(input)));
    }
  }

  private answer(path: string, body: string, res: import('node:http').ServerResponse): void {
    const m = /^\/(h|denied)\/([^/]+)\/([^/]+)$/.exec(path);
    if (m === null || m[1] === 'denied') {
      this.denied.push(path);
      res.writeHead(404).end();
      return;
    }
    const hook = this.#hooks.get(`${m[2]}/${m[3]}`);
    this.#pending.push({ key: m[3]!, behaviour: hook?.behaviour, body });
    if (hook === undefined) {
      res.writeHead(410).end();
      return;
    }
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(body) as Record<string, unknown>;
    } catch {
      res.writeHead(400).end();
      return;
    }
    const seen = seenValue(input);
    const b = hook.behaviour;
    const a = b.token === undefined || JSON.stringify(seen).includes(b.token) ? b.hit : b.miss;
    let out: unknown;
    try {
      out = answerOf(a, input, hook.cc);
    } catch {
      res.writeHead(500).end();
      return;
    }
    const text = out === undefined ? '' : JSON.stringify(out);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }
}
