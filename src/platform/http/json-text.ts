import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';

const JSON_TYPE = { 'Content-Type': 'application/json' };

/**
 * An answer whose JSON text is already made (kept presentations, see ShownTexts), typed as
 * `c.json` of a `T` would be, so the route's declared response still checks the handler. The
 * text must be JSON.stringify of a `T`: that is the one promise this cast rests on.
 */
export function jsonText<T, S extends ContentfulStatusCode>(
  c: Context,
  text: string,
  status: S,
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  const res: Response = c.body(text, status, JSON_TYPE);
  return res as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}
