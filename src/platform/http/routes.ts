/** A route of a Hono app as a pattern a concrete path can be tested against. */
export interface RoutePattern {
  method: string;
  /** A path with no parameter or wildcard: `/jobs/search`, not `/jobs/:id`. */
  fixed: boolean;
  regex: RegExp;
}

/**
 * The routes of an app (mounted at `mount`) as patterns, for answers that must say which methods
 * a path takes: a 405's Allow, real or faulted. A parameter matches one segment.
 */
export function routePatterns(
  routes: readonly { method: string; path: string }[],
  mount = '',
): RoutePattern[] {
  return routes.map((route) => ({
    method: route.method,
    fixed: !/[:*]/.test(route.path),
    regex: new RegExp(
      `^${mount}${route.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\/:[^/]+/g, '/[^/]+')}$`,
    ),
  }));
}
