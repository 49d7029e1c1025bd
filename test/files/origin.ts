// A file origin on 127.0.0.1 for the URL upload tests: each path answers as the test tells it,
// and every request it got is kept (its path and Host header).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface Origin {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  seen: { path: string; host: string | undefined }[];
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

export async function startOrigin(): Promise<Origin> {
  const routes = new Map<string, Handler>();
  const seen: Origin['seen'] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', host: req.headers.host });
    const handler = routes.get((req.url ?? '').split('?')[0] ?? '');
    if (handler) {
      handler(req, res);
    } else {
      res.writeHead(404).end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    route: (path, handler) => routes.set(path, handler),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A handler answering `bytes` with `type`. */
export const serve =
  (bytes: Uint8Array, type = 'application/octet-stream', chunked = false): Handler =>
  (_req, res) => {
    res.writeHead(
      200,
      chunked ? { 'Content-Type': type } : { 'Content-Type': type, 'Content-Length': bytes.length },
    );
    res.end(bytes);
  };
