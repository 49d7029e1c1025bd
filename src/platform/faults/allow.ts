import { type RoutePattern, routePatterns } from '../http/routes';
/** The methods a path is served with, HEAD with GET; none when the path is no route. */
export type MethodsAt = (path: string) => string[];

/**
 * decisions.md, Faults: a faulted 405 says `Allow`, as a real one does (src/platform/http/
 * not-found.ts), read from the routes of `app`, mounted at `mount` (`/v1`). Compiled on first use:
 * routes are added after the fault layer is. A fixed path (`/jobs/search`) is its own routes'
 * only, not those of the parameter route it also fits (`/jobs/{id}`), as the router serves it.
 */
export function routeMethods(
  app: { routes: readonly { method: string; path: string }[] },
  mount = '',
): MethodsAt {
  let patterns: RoutePattern[] | undefined;
  return (path) => {
    patterns ??= routePatterns(app.routes, mount).filter((p) => p.method !== 'ALL' || p.fixed);
    const fits = patterns.filter((p) => p.regex.test(path));
    const chosen = fits.some((p) => p.fixed) ? fits.filter((p) => p.fixed) : fits;
    const methods = new Set(chosen.map((p) => p.method).filter((m) => m !== 'ALL'));
    if (methods.has('GET')) {
      methods.add('HEAD');
    }
    return [...methods].sort();
  };
}

/**
 * The `Allow` of a faulted 405: the path's methods but the one refused (GET and HEAD go
 * together: HEAD is served as GET), so a client that picks a verb from it is not sent back.
 */
export function allowFor(methods: string[], refused: string): string {
  const asked = refused.toUpperCase();
  const same = (m: string) =>
    m === asked || (m === 'HEAD' && asked === 'GET') || (m === 'GET' && asked === 'HEAD');
  return methods.filter((m) => !same(m)).join(', ');
}
