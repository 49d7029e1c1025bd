import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../context';
import { ApiError } from '../errors';
import { BODY_METHODS } from '../request-log';

const MAX_BODY = 25 * 1024 * 1024 + 64 * 1024; // spec, Limits: 25 MB files, plus multipart framing

/** spec, Limits: a body over 25 MB is 413; mounted before anything reads a body. */
export function limitBodies(): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: MAX_BODY,
    onError: () => {
      throw new ApiError('payload_too_large', 'the request body is larger than 25 MB');
    },
  });
  return (c, next) => (BODY_METHODS.has(c.req.method) ? limit(c, next) : next());
}
