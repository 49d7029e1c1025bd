import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from './body-limit';

// A client that sends `Expect: 100-continue` waits for a 100 before it sends the body. Node sends
// that 100 by itself, even for a body the route will refuse for its size. decisions.md: a declared
// Content-Length over the cap is refused before a byte of the body is sent; so a request naming
// one goes to the app without a 100, and the app's 413 is the answer the client waits for.
export function continueUnlessTooLarge(server: Server) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const length = Number(req.headers['content-length']);
    if (!(Number.isFinite(length) && length > MAX_BODY_BYTES)) {
      res.writeContinue();
    }
    server.emit('request', req, res);
  };
}
