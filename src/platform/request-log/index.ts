import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { bodyText } from '../http/body-text';
import { hasBody } from '../http/has-body';
import type { Runtime } from '../runtime';
import { cap, type LoggedResponse, type NewEntry, type RequestLog } from './log';
import { sharedEntry } from './shared';

export {
  DEFAULT_MAX_BYTES,
  type LoggedRequest,
  type RequestFilter,
  RequestLog,
  requestLogFiles,
} from './log';

/** Methods whose requests carry a body; asking a GET for its body costs a full Request. */
export const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The body as sent, read before the route does (Hono caches it for the validators). Asked only
 * of BODY_METHODS: a GET does not wait on it.
 */
async function requestBody(c: Context<AppEnv>): Promise<string | null> {
  if (!hasBody(c)) {
    return null;
  }
  const type = c.req.header('Content-Type') ?? '';
  if (type.toLowerCase().startsWith('multipart/')) {
    // media types are case-insensitive
    return `[multipart body, ${c.req.header('Content-Length') ?? 'unknown'} bytes]`;
  }
  return await bodyText(c);
}

/** The query of a URL as an object; parsing the whole URL a request was a tenth of its cost. */
function queryOf(url: string): Record<string, string> {
  const at = url.indexOf('?');
  return at < 0 ? NONE : Object.fromEntries(new URLSearchParams(url.slice(at + 1)));
}

const NO_BODY: LoggedResponse = { text: '' };

/** No query, or neither header: shared, as most calls have none (nothing writes to it). */
const NONE: Record<string, string> = Object.freeze({});

/** The request headers the log keeps: those replay sends again. */
function loggedHeaders(c: Context<AppEnv>): Record<string, string> {
  const contentType = c.req.header('content-type');
  const idempotencyKey = c.req.header('idempotency-key');
  if (contentType === undefined && idempotencyKey === undefined) {
    return NONE;
  }
  const headers: Record<string, string> = {};
  if (contentType !== undefined) {
    headers['content-type'] = contentType;
  }
  if (idempotencyKey !== undefined) {
    headers['idempotency-key'] = idempotencyKey;
  }
  return headers;
}

/**
 * An answer made from a string (every `c.json`), as the log keeps it. The Node adapter keeps that
 * string, and the headers, in its lightweight Response under a symbol of its own: read there, they
 * cost nothing, where cloning the response and reading its stream back, or wrapping `c.json` on
 * every request (which slows every later use of the context), cost a sixth of a small request.
 */
function madeResponse(res: Response): LoggedResponse | undefined {
  const cache = (res as unknown as Record<symbol, unknown>)[adapterCache(res)];
  if (!Array.isArray(cache)) {
    return undefined;
  }
  const body: unknown = cache[1];
  const headers: unknown = cache[2];
  const type =
    headers instanceof Headers
      ? headers.get('Content-Type')
      : (headers as Record<string, string> | undefined)?.['Content-Type'];
  const json = (type ?? '').startsWith('application/json');
  if (typeof body === 'string') {
    return json ? { json: body } : { text: body };
  }
  // Kept presentations are answered as their UTF-8 bytes (see ShownJson): the log decodes only
  // what a line keeps of them.
  return json && body instanceof Uint8Array ? { jsonBytes: body } : undefined;
}

/**
 * The answer as the log keeps it; synchronous when the adapter holds its body (see madeResponse).
 * Anything else (another runtime, a stream) is read back from a clone.
 */
function responseOf(res: Response): LoggedResponse | Promise<LoggedResponse> {
  const made = madeResponse(res);
  if (made) {
    return made;
  }
  return res
    .clone()
    .text()
    .then((text) =>
      (res.headers.get('Content-Type') ?? '').startsWith('application/json')
        ? { json: text }
        : { text },
    );
}

let cacheSymbol: symbol | undefined;
function adapterCache(res: Response): symbol {
  cacheSymbol ??= Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
  return cacheSymbol ?? NO_CACHE;
}
const NO_CACHE = Symbol('none');

// spec, Limits: every call made with a credential (a known one, even revoked) is logged, for
// /__admin/requests and replay. Outermost in /v1, so it sees the final status of any answer.
export const logRequests =
  (rt: Pick<Runtime, 'clock' | 'clocks' | 'store'>, log: RequestLog): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const started = performance.now();
    const atMs = rt.clock.nowMs();
    let body: string | null = null;
    if (BODY_METHODS.has(c.req.method)) {
      try {
        body = await requestBody(c);
      } catch {
        body = null; // unreadable bodies are the route's to refuse
      }
    }
    await next();
    // A revoked key's calls are logged too: support needs to see them refused.
    const credential = c.get('credential') ?? c.get('presented');
    if (!credential) {
      return;
    }
    const res = c.res;
    // A HEAD is answered the GET's headers and no body: the log keeps what was sent.
    const answer = c.req.method === 'HEAD' ? NO_BODY : responseOf(res);
    const response = answer instanceof Promise ? await answer : answer;
    const duration = Math.round((performance.now() - started) * 10) / 10;
    // The entry is made of plain values read now: a closure or an entry holding the context would
    // keep every request's whole graph (request, response, socket state) alive until the log is
    // written. Its line is made once this turn's answers are on their way (see append).
    const { method, path, url } = c.req;
    const request = body === null ? null : cap(body);
    const entry: NewEntry = {
      at: rt.clock.isoOf(atMs),
      atMs,
      method,
      path,
      query: queryOf(url),
      // decisions.md, Faults: a dropped call answered nothing; the log says status 0.
      status: c.get('dropped') ? 0 : res.status,
      duration_ms: duration,
      key_id: credential.id,
      credential_kind: credential.kind,
      workspace_id: credential.workspaceId,
      leadMs: rt.clocks.offset(credential.workspaceId),
      request_id: c.get('requestId'),
      request_headers: loggedHeaders(c),
      request_body: request?.text ?? null,
      request_body_truncated: request?.truncated ?? false,
      response,
      fault: c.get('fault'),
      ...(rt.store.cluster === undefined ? {} : { node: rt.store.cluster.node }),
    };
    // With several nodes, written to the shared table before the answer goes, and the log
    // filled from there (shared.ts): every node's log holds every node's calls, in one order.
    const shared = rt.store.cluster?.requests;
    if (shared === undefined) {
      log.append(entry);
      return;
    }
    await shared.publish(sharedEntry(entry)).catch(() => log.append(entry));
    log.pulled?.();
  };
