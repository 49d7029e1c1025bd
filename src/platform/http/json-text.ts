import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';

const JSON_TYPE = { 'Content-Type': 'application/json' };

/**
 * An answer whose JSON is already made (kept presentations, see ShownJson), typed as `c.json` of
 * a `T` would be, so the route's declared response still checks the handler. The bytes must be
 * JSON.stringify of a `T` in UTF-8: that is the one promise this cast rests on. Sent as bytes,
 * the Node adapter neither measures nor encodes them again.
 */
export function jsonText<T, S extends ContentfulStatusCode>(
  c: Context,
  json: string | Uint8Array<ArrayBuffer>,
  status: S,
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  const res: Response = c.body(json, status, JSON_TYPE);
  return res as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}
