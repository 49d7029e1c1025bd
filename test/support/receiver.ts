import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A webhook receiver on 127.0.0.1 for tests: it records every request and answers as the test
// says. Signatures are checked here with node:crypto alone, apart from svc's own code.

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown>;
  at: number;
}

export type Answer =
  | number
  | { status: number; delayMs?: number; headers?: Record<string, string>; body?: string };

export class Receiver {
  readonly received: Received[] = [];
  #server: Server;
  #answer: (req: Received, n: number) => Answer = () => 200;
  #waiters: { n: number; resolve: () => void }[] = [];
  url = '';

  private constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(body) as Record<string, unknown>;
        } catch {
          // recorded as is
        }
        const got: Received = { headers: req.headers, body, json, at: Date.now() };
        this.received.push(got);
        const answer = this.#answer(got, this.received.length);
        const a = typeof answer === 'number' ? { status: answer } : answer;
        const reply = () => {
          if (!res.destroyed) {
            res.writeHead(a.status, a.headers ?? {});
            res.end(a.body ?? '');
          }
        };
        if (a.delayMs) {
          setTimeout(reply, a.delayMs);
        } else {
          reply();
        }
        for (const w of this.#waiters.filter((w) => this.received.length >= w.n)) {
          w.resolve();
        }
        this.#waiters = this.#waiters.filter((w) => this.received.length < w.n);
      });
    });
  }

  static async start(): Promise<Receiver> {
    const r = new Receiver();
    await new Promise<void>((resolve) => r.#server.listen(0, '127.0.0.1', resolve));
    r.url = `http://127.0.0.1:${(r.#server.address() as AddressInfo).port}/hook`;
    return r;
  }

  /** How to answer the n-th request (1-based). */
  answer(fn: (req: Received, n: number) => Answer): this {
    this.#answer = fn;
    return this;
  }

  /** Resolves once `n` requests in all have come in; fails after `ms`. */
  waitFor(n: number, ms = 5000): Promise<Received[]> {
    if (this.received.length >= n) {
      return Promise.resolve(this.received);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`expected ${n} deliveries, got ${this.received.length}`)),
        ms,
      );
      this.#waiters.push({
        n,
        resolve: () => {
          clearTimeout(timer);
          resolve(this.received);
        },
      });
    });
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** The spec's check, written from the spec: any v1 over `<t>.<raw body>` matches, in constant time. */
export function verify(secret: string, header: string | undefined, body: string): boolean {
  if (!header) {
    return false;
  }
  const parts = header.split(',').map((p) => p.split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  if (!t) {
    return false;
  }
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts
    .filter(([k]) => k === 'v1')
    .some(([, v]) => {
      const got = Buffer.from(v ?? '', 'hex');
      return got.length === expected.length && timingSafeEqual(got, expected);
    });
}

/** The v1 values of a signature header. */
export const v1Values = (header: string | undefined): string[] =>
  (header ?? '')
    .split(',')
    .filter((p) => p.startsWith('v1='))
    .map((p) => p.slice(3));
