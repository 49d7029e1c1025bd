import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

// A round-robin reverse proxy on 127.0.0.1 in front of several svc nodes (issue 40), as nginx's
// upstream with `proxy_next_upstream error` would be: each request goes to the next node in turn,
// and one that refuses the connection (a node killed) is passed over for the next. Bodies and
// answers are streamed through, an event stream's included.

export interface RoundRobin {
  url: string;
  /** The nodes requests go to, in turn; replaced to take a node out or put one back. */
  backends: string[];
  close(): Promise<void>;
}

export async function startProxy(backends: readonly string[]): Promise<RoundRobin> {
  const state = { backends: [...backends], next: 0 };
  const server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      const tries = state.backends.length;
      const attempt = (left: number) => {
        const target = state.backends[state.next++ % state.backends.length];
        if (target === undefined || left === 0) {
          res.writeHead(502).end();
          return;
        }
        const out = request(
          `${target}${req.url ?? '/'}`,
          { method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        out.on('error', (err: NodeJS.ErrnoException) => {
          if (res.headersSent) {
            res.destroy();
          } else if (err.code === 'ECONNREFUSED' || err.code === 'ECONNRESET') {
            attempt(left - 1);
          } else {
            res.writeHead(502).end();
          }
        });
        out.end(Buffer.concat(body));
      };
      attempt(tries);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get backends() {
      return state.backends;
    },
    set backends(list: string[]) {
      state.backends = [...list];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
