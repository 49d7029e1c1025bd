import http from 'node:http';
import https from 'node:https';
import { networkErrorText } from '../../deliveries/send';
import { withControlAuth } from '../control-token';

// One GET of coverage's, its body read as it comes: a request log's export can be hundreds of
// megabytes (20,000 entries with 16 KB answers), which must never be one string. node:http
// rather than fetch, as src/clients/replay/http.ts: fetch refuses ports a svc may well listen on.

/** A body as it comes, in chunks. */
export type Body = AsyncIterable<Buffer | string> | Iterable<Buffer | string>;

export type Answer = { status: number; body: Body } | { error: string };

/** GETs `url`; never throws: a failure before the answer is an `error`. */
export type Get = (url: string) => Promise<Answer>;

const TIMEOUT_MS = 30_000;

export const httpGet: Get = (url) =>
  new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ error: 'invalid URL' });
      return;
    }
    const lib = target.protocol === 'https:' ? https : http;
    const req = lib.get(target, { timeout: TIMEOUT_MS, headers: withControlAuth(url) });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: networkErrorText(err) }));
    req.on('response', (res) => resolve({ status: res.statusCode ?? 0, body: res }));
  });

/** The whole body as text (for the small answers: a document, a page of a list). */
export async function textOf(body: Body): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
