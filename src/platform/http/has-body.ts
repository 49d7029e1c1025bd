import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * Whether a request carries a body. Under the Node adapter it is read off the request's headers
 * (HTTP/1.1: a body has a Content-Length or a Transfer-Encoding): asking the adapter's lightweight
 * request for `body` makes it build a full Fetch Request (an AbortSignal, a web stream over the
 * socket), which outlives the request through undici's finalization registry and was the most
 * garbage a write left for the old generation (issue 21). Its text() and json() read the socket
 * directly. In process (`app.request`) the Request is already whole.
 */
export function hasBody(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming?.headers !== undefined) {
    return (
      incoming.headers['content-length'] !== undefined ||
      incoming.headers['transfer-encoding'] !== undefined
    );
  }
  return c.req.raw.body !== null;
}
