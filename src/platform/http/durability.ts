import type { Context, MiddlewareHandler } from 'hono';
import type { Store } from '../../store';
import { StoreUnavailable } from '../../store/durable-mark';
import type { AppEnv } from '../app-env';
import { ApiError } from '../errors';

// A write is acknowledged only once it is on disk: when anything committed while this request
// ran, the answer waits for the group commit that carries it. A read during which nothing was
// written pays nothing. On PostgreSQL, a commit the database did not take is answered 500
// `server_error` with Retry-After (spec, Errors: "fault; retry shortly"), and so is every request
// while the store reads itself back (decisions.md, The store on PostgreSQL).

export const unavailable = () =>
  new ApiError('server_error', 'the database is not answering: retry shortly', undefined, {
    'Retry-After': '1',
  });

export const durability =
  (store: Store, stampRate: (c: Context<AppEnv>) => void): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (!store.available) {
      if (c.req.path.startsWith('/v1/')) {
        stampRate(c); // spec, Limits: the rate-limit headers are on every response
      }
      throw unavailable();
    }
    const seq = store.seq;
    await next();
    if (store.seq !== seq) {
      try {
        await store.sync();
      } catch (err) {
        // the file's journal failing stays what it was: a fault of svc's own
        throw err instanceof StoreUnavailable ? unavailable() : err;
      }
    }
  };
