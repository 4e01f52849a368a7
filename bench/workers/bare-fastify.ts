// The HTTP floor of bench/serve.ts: a bare fastify route that parses the same JSON body as
// `hookwarden serve` and answers a constant (the fast path's exact answer), in its own process like
// the server. Prints {"listening": url} on stdout; stops on SIGTERM.
import Fastify from 'fastify';

const ANSWER = JSON.stringify({ event: 'BeforeTool', decision: 'passthrough', hooks: [] });
const app = Fastify({ logger: false });
app.post('/v1/dispatch/:event', async (request, reply) => {
  if (typeof request.body !== 'object' || request.body === null) throw new Error('expected a JSON object');
  return reply.type('application/json; charset=utf-8').send(ANSWER);
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address !== null ? address.port : 0;
process.stdout.write(`${JSON.stringify({ listening: `http://127.0.0.1:${port}` })}\n`);
process.on('SIGTERM', () => {
  app.close().then(() => process.exit(0));
});
