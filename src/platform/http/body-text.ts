import type { Context } from 'hono';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder();
/** A JSON media type, as Hono's validator tells a JSON body. */
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * The body as text, its bytes read once and kept where Hono keeps a request's bodies. JSON text is
 * UTF-8 (RFC 8259 §8.1), so a JSON body with bytes that are not is no JSON: whatever reads it as
 * JSON after this (the validators, `c.req.json()`) meets a parse error and answers 400
 * `invalid_request`, where Hono's decoder would have turned the bytes into U+FFFD and the record
 * kept text nobody sent (found by an integrator's probe). The text answered here, which the request
 * log keeps, has those replacement characters.
 */
export async function bodyText(c: Context): Promise<string> {
  const cache = c.req.bodyCache as { text?: Promise<string> };
  if (cache.text !== undefined) {
    return cache.text;
  }
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  try {
    const text = utf8.decode(bytes);
    cache.text = Promise.resolve(text);
    return text;
  } catch {
    const type = c.req.header('content-type')?.split(';')[0]?.trim() ?? '';
    if (JSON_TYPE.test(type)) {
      const refused = Promise.reject(new SyntaxError('the request body is not UTF-8'));
      refused.catch(() => undefined); // the route reads it, or nothing does
      cache.text = refused;
    }
    return lenient.decode(bytes);
  }
}
