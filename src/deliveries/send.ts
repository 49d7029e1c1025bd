import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';

// spec, Delivery headers and Signature verification. node:http rather than fetch: fetch refuses
// a list of "bad ports" (6000, 6665, ...) that a receiver may well listen on, and redirects are
// simply never followed here.

export const USER_AGENT = 'Service-Webhooks/2.0';
const SNIPPET = 500;
const MAX_READ = 64 * 1024;

/** `t=<unix seconds>,v1=<hex>` with one v1 per secret, each over `<t>.<body>`. */
export function signature(secrets: readonly string[], body: string, t: number): string {
  const signed = `${t}.${body}`;
  const v1 = secrets.map((s) => `v1=${createHmac('sha256', s).update(signed).digest('hex')}`);
  return [`t=${t}`, ...v1].join(',');
}

export interface Outgoing {
  url: string;
  body: string;
  event: string;
  eventId: string;
  webhookId: string;
  attempt: number;
  secrets: readonly string[];
}

export interface Result {
  status: number | null;
  error: string | null;
  durationMs: number;
  snippet: string | null;
  /** The injected fault that stood in for the receiver (see faulted.ts). */
  fault?: string;
  /** The X-Service-Signature header sent; absent when nothing was (a bad URL, a fault's answer). */
  signature?: string;
}

const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

export const timedOutAfter = (timeoutMs: number) => `timed out after ${timeoutMs / 1000} s`;

function describe(err: NodeJS.ErrnoException, timeoutMs: number, timedOut: boolean): string {
  return timedOut ? timedOutAfter(timeoutMs) : networkErrorText(err);
}

/** A failed connection in words a person reads in a log: the delivery log's and svc replay's. */
export function networkErrorText(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    default:
      return err.code ? `${err.code}: ${err.message}` : err.message;
  }
}

/** One POST of a delivery. Never throws: every way it can go wrong is an outcome to log. */
export function deliver(out: Outgoing, timeoutMs: number, stop: AbortSignal): Promise<Result> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(out.url);
    } catch {
      resolve({ status: null, error: 'invalid target URL', durationMs: 0, snippet: null });
      return;
    }
    const secure = url.protocol === 'https:';
    const body = Buffer.from(out.body);
    // Kept with the attempt: the delivery log shows what was sent, and it cannot be made again
    // later (it signs the second it went out, with the secrets valid then).
    const signed = signature(out.secrets, out.body, Math.floor(Date.now() / 1000));
    let timedOut = false;
    let settled = false;
    const finish = (result: Result) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, signature: signed });
      }
    };
    const req = (secure ? https : http).request(url, {
      method: 'POST',
      agent: secure ? agents['https:'] : agents['http:'],
      signal: stop,
      headers: headersOf(out, body.length, signed),
    });
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new Error('timeout'));
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({
        status: null,
        error: describe(err, timeoutMs, timedOut),
        durationMs: elapsed(),
        snippet: null,
      }),
    );
    req.on('response', (res) =>
      readAnswer(res, (status, snippet) =>
        finish({
          status,
          error: timedOut
            ? timedOutAfter(timeoutMs)
            : status >= 300 && status < 400
              ? 'redirect (not followed)'
              : null,
          durationMs: elapsed(),
          snippet,
        }),
      ),
    );
    req.end(body);
  });
}

/** spec, Delivery headers. */
function headersOf(out: Outgoing, length: number, signed: string): http.OutgoingHttpHeaders {
  return {
    'Content-Type': 'application/json',
    'Content-Length': length,
    'User-Agent': USER_AGENT,
    'X-Service-Signature': signed,
    'X-Service-Event': out.event,
    'X-Service-Delivery': out.eventId,
    'X-Service-Webhook-Id': out.webhookId,
    'X-Service-Attempt': String(out.attempt),
  };
}

/**
 * Reads the receiver's answer: its status and the first SNIPPET characters of its body, for the
 * log. `done` may be called more than once (the answer ends, then closes): the first call counts.
 */
function readAnswer(
  res: http.IncomingMessage,
  done: (status: number, snippet: string | null) => void,
): void {
  const chunks: Buffer[] = [];
  let read = 0;
  res.on('data', (chunk: Buffer) => {
    if (read < SNIPPET) {
      chunks.push(chunk);
    }
    read += chunk.length;
    if (read > MAX_READ) {
      res.destroy(); // enough read to log; the rest is not worth waiting for
    }
  });
  const ended = () => {
    const text = Buffer.concat(chunks).toString('utf8').slice(0, SNIPPET);
    done(res.statusCode ?? 0, text === '' ? null : text);
  };
  res.on('end', ended);
  res.on('close', ended);
  res.on('error', () => ended());
}
