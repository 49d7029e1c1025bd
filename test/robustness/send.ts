import type { Exchange } from '../support/contract';
import { parseBody, type Reply } from '../support/harness';
import { type Case, concrete } from './cases';
import type { Base, Operation } from './document';
import type { Env } from './environment';

// Sending a case: through the harness client, or verbatim where the query is one a client
// cannot write; either way the answer is checked against the document.

function parseQuery(raw: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const pair of raw.split('&').filter((p) => p !== '')) {
    const [k = '', v = ''] = pair.split('=');
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s.replaceAll('+', ' '));
      } catch {
        return s;
      }
    };
    const key = decode(k);
    const prev = out[key];
    out[key] = prev === undefined ? decode(v) : [prev, decode(v)].flat();
  }
  return out;
}

const lower = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/** For a query the client cannot write: the same request and the same contract check. */
async function sendVerbatim(
  env: Env,
  base: Base,
  method: string,
  path: string,
  rawQuery: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
): Promise<Reply> {
  const res = await (await env.h.next()).app.request(`${base}${path}?${rawQuery}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  const parsed = parseBody(text);
  const exchange: Exchange = {
    method,
    path,
    query: parseQuery(rawQuery),
    requestHeaders: lower(headers),
    requestBody: body,
    status: res.status,
    responseHeaders: lower(Object.fromEntries(res.headers)),
    responseBody: parsed,
  };
  await env.h.checkContract(base, exchange, true);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export async function send(env: Env, op: Operation, c: Case): Promise<Reply> {
  const who = c.who ?? (op.base === '/v1' ? 'write' : 'admin');
  const method = c.method ?? op.method;
  const path = c.path ?? concrete(op);
  // '@write' in a header stands for the workspace's write key.
  const headers = Object.fromEntries(
    Object.entries(c.headers ?? {}).map(([k, v]) => [k, v.replace('@write', env.keys.write ?? '')]),
  );
  if (c.rawQuery !== undefined) {
    const key = env.keys[who];
    const auth: Record<string, string> =
      key === undefined ? {} : { Authorization: `Bearer ${key}` };
    return sendVerbatim(env, op.base, method, path, c.rawQuery, { ...auth, ...headers }, c.body);
  }
  return env.clients[who].raw(method, path, {
    headers,
    ...(c.query ? { query: c.query } : {}),
    ...(c.body === undefined ? {} : { body: c.body }),
  });
}
