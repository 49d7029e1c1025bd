import type { MiddlewareHandler } from 'hono';
import type { Store } from '../../store';
import type { AppEnv } from '../app-env';

// A write is acknowledged only once it is on disk: when anything committed while this request
// ran, the answer waits for the group commit that carries it. A read during which nothing was
// written pays nothing.
export const durability =
  (store: Store): MiddlewareHandler<AppEnv> =>
  async (_c, next) => {
    const seq = store.seq;
    await next();
    if (store.seq !== seq) {
      await store.sync();
    }
  };
