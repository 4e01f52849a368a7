// A Server-Sent Events client for the tests: reads GET /v1/events frame by frame (fetch's stream),
// resolves once the server says it is subscribed (`: connected`), and hands out frames in order.
import { HANG_MS } from './serve.js';

export interface SseFrame {
  id?: string;
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: each test checks the fields it reads
  data: any;
}

export class SseStream {
  readonly #controller = new AbortController();
  readonly #frames: SseFrame[] = [];
  #waiters: (() => void)[] = [];
  #ended = false;
  status = 0;

  static async open(url: string, token: string | undefined, lastEventId?: string): Promise<SseStream> {
    const s = new SseStream();
    await s.#start(url, token, lastEventId);
    return s;
  }

  async #start(url: string, token: string | undefined, lastEventId: string | undefined): Promise<void> {
    const res = await fetch(`${url}/v1/events`, {
      signal: this.#controller.signal,
      headers: {
        accept: 'text/event-stream',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
      },
    });
    this.status = res.status;
    if (res.status !== 200) {
      this.#frames.push({ event: 'http-error', data: await res.json() });
      this.#ended = true;
      return;
    }
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let connected!: () => void;
    const isConnected = new Promise<void>((resolve) => (connected = resolve));
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (block === ': connected') connected();
            else if (!block.startsWith(':')) this.#push(parse(block));
            end = buffer.indexOf('\n\n');
          }
        }
      } catch {}
      this.#ended = true;
      connected();
      for (const w of this.#waiters.splice(0)) w();
    })();
    await isConnected;
  }

  #push(f: SseFrame): void {
    this.#frames.push(f);
    for (const w of this.#waiters.splice(0)) w();
  }

  /** The next frame (of `type`, skipping others when given); rejects if the stream ends first. */
  async next(type?: string): Promise<SseFrame> {
    const deadline = Date.now() + HANG_MS;
    for (;;) {
      const i = this.#frames.findIndex((f) => type === undefined || f.event === type);
      if (i >= 0) return this.#frames.splice(i, 1)[0]!;
      if (this.#ended) throw new Error(`the event stream ended before a "${type ?? 'any'}" frame`);
      if (Date.now() > deadline) throw new Error('no frame within the hang bound');
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, HANG_MS);
        this.#waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Frames received and not taken yet. */
  pending(): readonly SseFrame[] {
    return this.#frames;
  }

  close(): void {
    this.#controller.abort();
  }
}

function parse(block: string): SseFrame {
  const f: SseFrame = { event: 'message', data: undefined };
  for (const line of block.split('\n')) {
    const at = line.indexOf(': ');
    const [k, v] = at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at + 2)];
    if (k === 'id') f.id = v;
    else if (k === 'event') f.event = v;
    else if (k === 'data') f.data = JSON.parse(v);
  }
  return f;
}
