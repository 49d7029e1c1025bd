import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { RequestError } from '@hono/node-server';
import { ApiError, errorBody } from '../errors';
import { nextId } from './request-id';

// A request Node's parser refuses (a request line and headers over its 16 KB, bytes that are no
// HTTP) never reaches the app, and Node answers it with a bare 431 or 400. spec, Errors: every
// error carries the envelope and its request id; so it gets them here, as a 400 invalid_request
// (the spec's code for anything wrong in the request), and the connection closes, since what
// follows on it cannot be framed.

const TOO_LARGE = new Set(['HPE_HEADER_OVERFLOW', 'HPE_URI_TOO_LONG']);

export function answerUnparsable(origin: string) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const message = TOO_LARGE.has(err.code ?? '')
      ? 'the request line and headers are larger than 16 KB'
      : 'the request is not well-formed HTTP';
    const { headers, body } = envelope(new ApiError('invalid_request', message), origin);
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.end(`HTTP/1.1 400 Bad Request\r\n${lines.join('')}Connection: close\r\n\r\n${body}`);
  };
}

/** An error envelope as a plain answer: its status, headers and JSON body. */
function envelope(err: ApiError, origin: string) {
  const id = nextId();
  const body = JSON.stringify(errorBody(err, id, origin));
  return {
    status: err.status,
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(body)),
      'X-Request-Id': id,
    },
    body,
  };
}

const badHost = () =>
  new ApiError('invalid_request', 'the request has no Host header, or one that names no host');

/**
 * What the Node adapter answers when it cannot make a Request of a request (a Host header that
 * names no host, a URL that is none), or the app failed beyond its own error handler: the
 * envelope, as for what the parser refuses, where the adapter answered a bare 400 or 500. The
 * origin is read when needed: it is known once the server listens.
 */
export function answerUnusable(origin: () => string) {
  return (err: unknown): Response => {
    const { status, headers, body } = envelope(
      err instanceof RequestError
        ? badHost()
        : new ApiError('server_error', 'something went wrong on our side; retry shortly'),
      origin(),
    );
    return new Response(body, { status, headers });
  };
}

/**
 * An HTTP/1.1 request must name its host (RFC 9112, 3.2): one without a Host header is 400, with
 * the envelope. Node would answer it a bare 400 itself; svc's server asks it not to, for this.
 * An HTTP/1.0 request may leave it out and is served on the server's own host.
 */
export function answeredWithoutHost(
  req: IncomingMessage,
  res: ServerResponse,
  origin: () => string,
): boolean {
  if (req.headers.host !== undefined || req.httpVersion === '1.0') {
    return false;
  }
  const { status, headers, body } = envelope(badHost(), origin());
  res.writeHead(status, { ...headers, Connection: 'close' });
  res.end(body);
  return true;
}
