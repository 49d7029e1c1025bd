import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, Runtime } from '../../context';
import { ApiError } from '../errors';
import type { RateState } from './limiter';

export { RateLimiter, type RateState } from './limiter';

const states = new WeakMap<Context, RateState>();

function address(c: Context<AppEnv>): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'local';
}

// spec, Limits: the three X-RateLimit headers go on every response, errors included. Outermost
// in /v1: it stamps whatever state the limiter recorded, or, for an answer given before a
// credential was known (401), the state of the caller's address, counted but never enforced.
export const rateLimitHeaders =
  (rt: Runtime): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    await next();
    const limit = rt.config.rateLimit;
    if (limit === null) {
      return;
    }
    const credential = c.get('credential');
    const state =
      states.get(c) ??
      (credential
        ? rt.limiter.peek(credential.id, limit)
        : rt.limiter.hit(`address:${address(c)}`, limit));
    c.res.headers.set('X-RateLimit-Limit', String(state.limit));
    c.res.headers.set('X-RateLimit-Remaining', String(state.remaining));
    c.res.headers.set('X-RateLimit-Reset', String(state.reset));
  };

function enforce(c: Context<AppEnv>, state: RateState): void {
  states.set(c, state);
  if (!state.allowed) {
    throw new ApiError(
      'rate_limited',
      `over the limit of ${state.limit} requests a minute; retry after ${state.reset} s`,
      undefined,
      { 'Retry-After': String(state.reset) },
    );
  }
}

/** The general limit, per credential. */
export const rateLimit =
  (rt: Runtime): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const limit = rt.config.rateLimit;
    if (limit !== null) {
      enforce(c, rt.limiter.hit(c.get('ctx').credential.id, limit));
    }
    await next();
  };

/**
 * A tighter limit for one operation, counted inside the general one (spec, Limits: hail history
 * lookups, 20 a minute). The response's headers then describe this, the binding, limit.
 */
export const subLimit =
  (rt: Runtime, name: string, perMinute: number): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (rt.config.rateLimit !== null) {
      enforce(c, rt.limiter.hit(`${c.get('ctx').credential.id}:${name}`, perMinute));
    }
    await next();
  };
