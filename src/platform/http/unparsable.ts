import type { Socket } from 'node:net';
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
    const id = nextId();
    const message = TOO_LARGE.has(err.code ?? '')
      ? 'the request line and headers are larger than 16 KB'
      : 'the request is not well-formed HTTP';
    const body = JSON.stringify(errorBody(new ApiError('invalid_request', message), id, origin));
    socket.end(
      'HTTP/1.1 400 Bad Request\r\n' +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${id}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  };
}
