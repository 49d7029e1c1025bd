import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { setAnswerHeader } from './headers';

// CORS for /v1, so that a browser app on another origin (a front end on localhost:3000) can call
// svc, as it can the mock servers people use. Written here rather than with hono/cors, whose
// headers go on Hono's response and make the Node adapter rebuild every answer (see
// setAnswerHeader): a tenth of what a small read costs.

/** `--cors`: which origins may call; `*` any (the default, as local tools answer). */
export type CorsOrigins = '*' | readonly string[];

const METHODS = 'GET, HEAD, POST, PATCH, DELETE, OPTIONS';
const HEADERS = 'Authorization, X-API-Key, Content-Type, Idempotency-Key';
/** What a browser app may read of an answer besides the simple headers. */
const EXPOSED = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Idempotent-Replayed',
].join(', ');
const MAX_AGE = '600';

/** The Access-Control-Allow-Origin this request gets, if any. */
function allowedOrigin(origins: CorsOrigins, origin: string): string | undefined {
  if (origins === '*') {
    return '*';
  }
  return origins.includes(origin) ? origin : undefined;
}

/**
 * Stamps an answer with what the browser needs, and answers a preflight (OPTIONS with
 * Access-Control-Request-Method) itself with 204: it carries no credential, so it must be
 * answered before the credential is checked. Any other request goes on (undefined).
 * `onPreflight` stamps the preflight's answer with what every answer carries besides.
 */
export function cors(
  c: Context<AppEnv>,
  origins: CorsOrigins,
  onPreflight: (c: Context<AppEnv>) => void = () => {},
): Response | undefined {
  if (origins !== '*') {
    setAnswerHeader(c, 'Vary', 'Origin'); // an answer to one origin is no answer to another
  }
  // A request without Origin is no browser's cross-origin call: it needs nothing more, and a
  // read that sets no header more costs less.
  const sent = c.req.header('Origin');
  if (sent === undefined) {
    return undefined;
  }
  const origin = allowedOrigin(origins, sent);
  if (origin === undefined) {
    return undefined;
  }
  setAnswerHeader(c, 'Access-Control-Allow-Origin', origin);
  if (c.req.method === 'OPTIONS' && c.req.header('Access-Control-Request-Method') !== undefined) {
    setAnswerHeader(c, 'Access-Control-Allow-Methods', METHODS);
    setAnswerHeader(c, 'Access-Control-Allow-Headers', HEADERS);
    setAnswerHeader(c, 'Access-Control-Max-Age', MAX_AGE);
    onPreflight(c); // headers every answer carries (the rate limit's), set before it is made
    return c.body(null, 204);
  }
  setAnswerHeader(c, 'Access-Control-Expose-Headers', EXPOSED);
  return undefined;
}
