import http from 'node:http';
import https from 'node:https';
import { networkErrorText } from '../../deliveries/send';

// One request of a replay. node:http rather than fetch, as src/deliveries/send.ts: fetch refuses
// a list of "bad ports" a server may well listen on, and follows redirects, which a replay must
// report, not follow.

export interface Outgoing {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

export type Reply = { status: number; body: string } | { error: string };

const TIMEOUT_MS = 30_000;

/** Sends `out` and reads the whole answer. Never throws: a failure is a reply with `error`. */
export function send(out: Outgoing, timeoutMs = TIMEOUT_MS): Promise<Reply> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(out.url);
    } catch {
      resolve({ error: 'invalid URL' });
      return;
    }
    const lib = url.protocol === 'https:' ? https : http;
    const body = out.body === null ? undefined : Buffer.from(out.body);
    const headers: Record<string, string | number> = { ...out.headers };
    if (body !== undefined) {
      headers['Content-Length'] = body.length;
    }
    let req: http.ClientRequest;
    try {
      req = lib.request(url, { method: out.method, headers });
    } catch (err) {
      // a method or header value no HTTP request can carry (a hand-edited source)
      resolve({ error: (err as Error).message });
      return;
    }
    const timer = setTimeout(
      () => req.destroy(new Error(`timed out after ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ error: networkErrorText(err) });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        resolve({ error: networkErrorText(err) });
      });
    });
    req.end(body);
  });
}
