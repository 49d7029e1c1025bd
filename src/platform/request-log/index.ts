import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, Runtime } from '../../context';
import { cap, type RequestLog } from './log';

export { type LoggedRequest, type RequestFilter, RequestLog } from './log';

/** Methods whose requests carry a body; asking a GET for its body costs a full Request. */
export const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The body as sent, read before the route does (Hono caches it for the validators). */
async function requestBody(c: Context<AppEnv>): Promise<string | null> {
  const type = c.req.header('Content-Type') ?? '';
  if (!BODY_METHODS.has(c.req.method) || c.req.raw.body === null) {
    return null;
  }
  if (type.startsWith('multipart/')) {
    return `[multipart body, ${c.req.header('Content-Length') ?? 'unknown'} bytes]`;
  }
  return await c.req.text();
}

/**
 * Remembers the value each `c.json` call answers with: serialising it later, only if the entry
 * is read or written out, costs far less than cloning and reading every response's stream.
 */
function captureJson(c: Context<AppEnv>): () => { value: unknown } | undefined {
  let sent: { value: unknown } | undefined;
  const json = c.json;
  c.json = ((value: unknown, ...rest: unknown[]) => {
    sent = { value };
    return (json as (...args: unknown[]) => Response)(value, ...rest);
  }) as typeof c.json;
  return () => sent;
}

// spec, Limits: every call made with a credential (a known one, even revoked) is logged, for /__admin/requests and replay.
// Outermost in /v1, so it sees the final status of answers given by any later middleware.
export const logRequests =
  (rt: Runtime, log: RequestLog): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const started = performance.now();
    const at = rt.clock.iso();
    let body: string | null = null;
    try {
      body = await requestBody(c);
    } catch {
      body = null; // unreadable bodies are the route's to refuse
    }
    const sent = captureJson(c);
    await next();
    // A revoked key's calls are logged too: support needs to see them refused.
    const credential = c.get('credential') ?? c.get('presented');
    if (!credential) {
      return;
    }
    const url = new URL(c.req.url);
    const request = body === null ? null : cap(body);
    // A replayed answer was not made by c.json: its text is the stored one.
    const json = c.get('replayed') ? undefined : sent();
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'idempotency-key']) {
      const value = c.req.header(name);
      if (value !== undefined) {
        headers[name] = value;
      }
    }
    log.append({
      at,
      method: c.req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      key_id: credential.id,
      credential_kind: credential.kind,
      workspace_id: credential.workspaceId,
      request_id: c.get('requestId'),
      request_headers: headers,
      request_body: request?.text ?? null,
      request_body_truncated: request?.truncated ?? false,
      response: json ?? { text: await c.res.clone().text() },
    });
  };
