import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { ApiError } from '../errors';
import { setAnswerHeader } from '../http/headers';
import type { Runtime } from '../runtime';
import { type RateState, windowState } from './limiter';

export { RateLimiter, type RateState } from './limiter';

function address(c: Context<AppEnv>): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'local';
}

// spec, Limits: the three X-RateLimit headers go on every response, errors included. The
// limiter stamps them when it counts a request; this, outermost in /v1, stamps answers given
// before that (401, 402, 413): the key's window when one is known, else the caller's address's,
// counted but never enforced.
export const rateLimitHeaders =
  (rt: Pick<Runtime, 'config' | 'limiter' | 'store'>): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    await next();
    const limit = rt.config.rateLimit;
    if (limit === null) {
      return;
    }
    if (c.get('rateCounted')) {
      return; // stamped when the limiter counted the request
    }
    const credential = c.get('credential');
    if (credential) {
      const clock = c.get('ctx').clock;
      const shared = rt.store.cluster?.rates;
      stamp(
        c,
        shared
          ? windowState(await shared.peek(credential.id, clock.nowMs()), limit, true, clock.nowMs())
          : rt.limiter.peek(credential.id, limit, clock),
      );
    } else {
      stampAddress(rt, c);
    }
  };

/**
 * Stamps an answer given with no credential known (a 401, a CORS preflight): the caller's
 * address's window, counted but never enforced.
 */
export function stampAddress(rt: Pick<Runtime, 'config' | 'limiter'>, c: Context<AppEnv>): void {
  const limit = rt.config.rateLimit;
  if (limit !== null) {
    stamp(c, rt.limiter.hit(`address:${address(c)}`, limit));
  }
}

function stamp(c: Context<AppEnv>, state: RateState): void {
  setAnswerHeader(c, 'X-RateLimit-Limit', String(state.limit));
  setAnswerHeader(c, 'X-RateLimit-Remaining', String(state.remaining));
  setAnswerHeader(c, 'X-RateLimit-Reset', String(state.reset));
}

// Headers go on before the answer is made (see request-id.ts for why).
function enforce(c: Context<AppEnv>, state: RateState): void {
  c.set('rateCounted', true); // kept in a WeakMap, it cost the collector an entry a request
  stamp(c, state);
  if (!state.allowed) {
    throw new ApiError(
      'rate_limited',
      `over the limit of ${state.limit} requests a minute; retry after ${state.reset} s`,
      undefined,
      { 'Retry-After': String(state.reset) },
    );
  }
}

/**
 * The general limit, per credential: a check, run with the credential's (see v1.ts). With
 * several nodes, the key's window is counted in PostgreSQL, over every node: a promise then.
 */
export function rateLimit(
  rt: Pick<Runtime, 'config' | 'limiter' | 'store'>,
  c: Context<AppEnv>,
): undefined | Promise<void> {
  const limit = rt.config.rateLimit;
  if (limit === null) {
    return undefined;
  }
  const ctx = c.get('ctx');
  const shared = rt.store.cluster?.rates;
  if (shared) {
    const now = ctx.clock.nowMs();
    return shared
      .hit(ctx.credential.id, now)
      .then((window) => enforce(c, windowState(window, limit, window.count <= limit, now)));
  }
  enforce(c, rt.limiter.hit(ctx.credential.id, limit, ctx.clock));
  return undefined;
}

/**
 * A tighter limit for one operation, counted inside the general one (spec, Limits: hail history
 * lookups, 20 a minute). The response's headers then describe this, the binding, limit.
 */
export const subLimit =
  (
    rt: Pick<Runtime, 'config' | 'limiter' | 'store'>,
    name: string,
    perMinute: number,
  ): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (rt.config.rateLimit !== null) {
      const ctx = c.get('ctx');
      const credentialId = ctx.credential.id;
      const shared = rt.store.cluster?.rates;
      const now = ctx.clock.nowMs();
      const counted = shared && (await shared.hit(`${credentialId}:${name}`, now));
      const state = counted
        ? windowState(counted, perMinute, counted.count <= perMinute, now)
        : rt.limiter.hit(`${credentialId}:${name}`, perMinute, ctx.clock);
      if (!state.allowed) {
        // docs/decisions.md: a request refused with 429 does not count, under either limit.
        if (shared) {
          await shared.unhit(credentialId);
        } else {
          rt.limiter.unhit(credentialId);
        }
      }
      enforce(c, state);
    }
    await next();
  };
