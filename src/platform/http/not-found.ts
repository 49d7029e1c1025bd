import type { Context, Hono, NotFoundHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { ApiError } from '../errors';
import { errorResponse } from '../errors/handler';
import { type RoutePattern, routePatterns } from './routes';

function compile(app: Hono<AppEnv>): RoutePattern[] {
  // A wildcard route is a middleware on a method (a form-size guard), not an address.
  return routePatterns(app.routes.filter((r) => r.method !== 'ALL' && !r.path.includes('*')));
}

// spec, Errors: a known path with the wrong verb is 405 method_not_allowed (with Allow); any
// other unknown route is 404 not_found.
export function notFoundHandler(app: Hono<AppEnv>): NotFoundHandler<AppEnv> {
  let patterns: RoutePattern[] | undefined;
  return (c: Context<AppEnv>) => {
    patterns ??= compile(app);
    const allowed = new Set(patterns.filter((p) => p.regex.test(c.req.path)).map((p) => p.method));
    if (allowed.size > 0) {
      if (allowed.has('GET')) {
        allowed.add('HEAD');
      }
      const methods = [...allowed].sort().join(', ');
      return errorResponse(
        c,
        new ApiError(
          'method_not_allowed',
          `${c.req.method} is not allowed here; use ${methods}`,
          undefined,
          {
            Allow: methods,
          },
        ),
      );
    }
    return errorResponse(c, new ApiError('not_found', `no route ${c.req.method} ${c.req.path}`));
  };
}
