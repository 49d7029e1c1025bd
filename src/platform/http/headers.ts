import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';

/**
 * Sets a header every answer carries (X-Request-Id, X-RateLimit-*), whatever the route answers
 * with. Served over HTTP, it goes straight on Node's response: a header set on the context makes
 * Hono build every answer's headers as a Headers object, which the Node adapter then copies back
 * out, a tenth of what a small read cost. In process (app.request, the tests) there is no Node
 * response, and it goes on the context.
 */
export function setAnswerHeader(c: Context, name: string, value: string): void {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing && typeof outgoing.setHeader === 'function' && !outgoing.headersSent) {
    outgoing.setHeader(name, value);
  } else if (c.finalized) {
    c.res.headers.set(name, value);
  } else {
    c.header(name, value);
  }
}
