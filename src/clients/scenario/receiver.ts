import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Interrupted } from './http';

// The runner's own webhook receiver: one HTTP server on 127.0.0.1 for the whole run, one inbox
// (a path of its own) a session. It keeps the exact bytes, since the signature covers them; the
// delivery step verifies them. A delivery to an inbox that was closed (its scenario ended)
// answers 410, which makes svc (and the real service) delete the subscription: nothing keeps
// retrying against a runner that has moved on.

export interface Received {
  event: string;
  headers: Record<string, string | undefined>;
  raw: Buffer;
  body: unknown;
  consumed: boolean;
}

export interface Inbox {
  url: string;
  received: Received[];
  /** Webhook id to the secret its subscription was answered with. */
  secrets: Map<string, string>;
  /**
   * Resolves with `check`'s first defined answer, re-asked on each arrival, or undefined at the
   * deadline; an abort (Ctrl-C) rejects with Interrupted at once.
   */
  waitFor<T>(check: () => T | undefined, ms: number, signal?: AbortSignal): Promise<T | undefined>;
  close(): void;
}

export interface Receiver {
  open(): Inbox;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

interface Box {
  inbox: Inbox;
  arrived: () => void;
}

export async function startReceiver(): Promise<Receiver> {
  const boxes = new Map<string, Box>();
  const server = createServer((req, res) => {
    readBody(req).then(
      (raw) => {
        const box = boxes.get((req.url ?? '/').slice(1).split('?')[0] ?? '');
        if (req.method !== 'POST' || !box) {
          res.writeHead(req.method === 'POST' ? 410 : 405).end();
          return;
        }
        box.inbox.received.push(toReceived(req, raw));
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
        box.arrived();
      },
      () => res.writeHead(413).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    open() {
      const id = `inbox-${randomBytes(6).toString('hex')}`;
      const box = newBox(`${origin}/${id}`, () => boxes.delete(id));
      boxes.set(id, box);
      return box.inbox;
    },
    close() {
      boxes.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}

function newBox(url: string, remove: () => void): Box {
  let listeners: (() => void)[] = [];
  const arrived = () => {
    const now = listeners;
    listeners = [];
    for (const listener of now) {
      listener();
    }
  };
  const inbox: Inbox = {
    url,
    received: [],
    secrets: new Map(),
    waitFor<T>(check: () => T | undefined, ms: number, signal?: AbortSignal) {
      return new Promise<T | undefined>((resolve, reject) => {
        if (signal?.aborted) {
          reject(new Interrupted());
          return;
        }
        const stop = () => {
          clearTimeout(timer);
          reject(new Interrupted());
        };
        const finish = (answer: T | undefined) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', stop);
          resolve(answer);
        };
        const timer = setTimeout(() => finish(check()), ms);
        signal?.addEventListener('abort', stop, { once: true });
        const ask = () => {
          const answer = check();
          if (answer !== undefined) {
            finish(answer);
          } else {
            listeners.push(ask);
          }
        };
        ask();
      });
    },
    close() {
      remove();
      arrived();
    },
  };
  return { inbox, arrived };
}

function toReceived(req: IncomingMessage, raw: Buffer): Received {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    body = raw.toString('utf8');
  }
  const fromBody =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).event_type : '';
  return {
    event: headers['x-service-event'] ?? (typeof fromBody === 'string' ? fromBody : ''),
    headers,
    raw,
    body,
    consumed: false,
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
