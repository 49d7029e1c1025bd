import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Forwarding } from './forwarding';
import { type Delivery, deliveryHeaders, formatLine, type Outcome } from './receiver';
import type { Recorder } from './recorder';

// The receiver's HTTP side. node:http rather than hono: one handler for any path, and the body
// must reach the signature check as the exact bytes received.

export interface ListenerOptions {
  host: string;
  port: number;
  receive: (delivery: Delivery, nowMs: number) => Outcome;
  delayMs: number;
  recorder: Recorder | undefined;
  forwarding: Forwarding | undefined;
  out: (line: string) => void;
  warn: (line: string) => void;
}

export interface RunningListener {
  /** http://HOST:PORT, with the port actually bound. */
  url: string;
  port: number;
  /** Deliveries received so far: each POST that got a verdict and a line, rejected ones too. */
  received(): number;
  /** Stops accepting, answers deliveries still waiting out --delay at once, forwards what is held. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

export async function startListener(options: ListenerOptions): Promise<RunningListener> {
  const stopping = new AbortController();
  let received = 0;
  const counted = {
    ...options,
    receive: (delivery: Delivery, nowMs: number) => {
      received += 1;
      return options.receive(delivery, nowMs);
    },
  };
  const server = createServer((req, res) => {
    handle(req, res, counted, stopping.signal).catch((err: Error) => {
      options.warn(`warning: answering a delivery failed: ${err.message}`);
      if (!res.headersSent) {
        res.writeHead(500).end();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${hostForUrl(options.host)}:${port}`,
    port,
    received: () => received,
    async close() {
      stopping.abort();
      await new Promise<void>((resolve) => {
        // a client that holds a connection open without asking anything gets a second
        const cutoff = setTimeout(() => server.closeAllConnections(), 1000);
        server.close(() => {
          clearTimeout(cutoff);
          resolve();
        });
        server.closeIdleConnections();
      });
      await options.forwarding?.drain();
    },
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: ListenerOptions,
  stopping: AbortSignal,
): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { Allow: 'POST', 'Content-Type': 'text/plain' });
    res.end('svc webhook listen: deliveries are POSTed here\n');
    return;
  }
  const raw = await readBody(req);
  if (raw === undefined) {
    res.writeHead(413, { Connection: 'close' }).end();
    return;
  }
  const receivedAt = new Date();
  const delivery: Delivery = { headers: flatHeaders(req), raw };
  const outcome = options.receive(delivery, receivedAt.getTime());
  const forward =
    outcome.fresh && options.forwarding
      ? options.forwarding.take(delivery, outcome.eventId ?? outcome.event ?? 'a delivery')
      : undefined;
  await delay(options.delayMs, stopping);
  // A full disk costs the record line, not the answer svc is waiting for.
  await options.recorder
    ?.append({
      received_at: receivedAt.toISOString(),
      verdict: outcome.verdict,
      status: outcome.status,
      headers: deliveryHeaders(delivery.headers),
      body: raw.toString('utf8'),
      ...(outcome.diagnosis ? { diagnosis: outcome.diagnosis } : {}),
      ...(outcome.status === null ? { chaos: 'dropped' } : {}),
      ...(forward?.marker ? { chaos: forward.marker } : {}),
    })
    .catch((err: Error) => options.warn(`warning: recording a delivery failed: ${err.message}`));
  options.out(formatLine(outcome, receivedAt, forward?.marker));
  if (outcome.status === null) {
    // --drop: no status line, no bytes; the sender sees its connection reset and retries
    req.socket.destroy();
    return;
  }
  // once stopping, the connection closes after this answer instead of idling on keep-alive
  res.writeHead(outcome.status, {
    'Content-Type': 'application/json',
    ...(stopping.aborted ? { Connection: 'close' } : {}),
  });
  res.end(JSON.stringify({ verdict: outcome.verdict }));
  forward?.start();
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function flatHeaders(req: IncomingMessage): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** --delay: acts out a slow receiver; stopping the listener cuts the wait short. */
function delay(ms: number, stopping: AbortSignal): Promise<void> {
  if (ms <= 0 || stopping.aborted) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stopping.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stopping.addEventListener('abort', done, { once: true });
  });
}

/** The address to reach a listener bound to `host`: a wildcard bind is reached on loopback. */
export function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '') {
    return '127.0.0.1';
  }
  if (host === '::') {
    return '[::1]';
  }
  return host.includes(':') ? `[${host}]` : host;
}
