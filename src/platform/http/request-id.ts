import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../context';

// spec, Errors: `request_id` is also sent as header X-Request-Id (on every response, so a
// support ticket can quote it even for a success).
export const requestId = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const id = `req_${randomBytes(12).toString('hex')}`;
  c.set('requestId', id);
  await next();
  c.res.headers.set('X-Request-Id', id);
};
