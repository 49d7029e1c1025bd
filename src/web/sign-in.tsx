import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { setCookie } from 'hono/cookie';
import type { AppEnv } from '../platform/app-env';
import { sameSecret } from '../platform/auth';
import { SESSION_COOKIE, sessionMark, signedIn } from '../platform/http/admin-session';
import type { Runtime } from '../platform/runtime';
import { Page } from './ui/layout';

// decisions.md, Control API access: on a server started with --admin-token, the inspector, the
// dashboard and the record pages ask for the token once, and a cookie remembers it (HttpOnly,
// SameSite=Strict, never the token itself). The homeowner's pages (a portal, an estimate's view,
// the pay page and the PDFs they link), the consent page, /docs and the styles stay open: their
// addresses are the unguessable links the real service sends, or hold no data.

const OPEN = [
  /^\/portal\//,
  /^\/view\//,
  /^\/pay\//,
  /^\/estimates\/[^/]+\/(pdf|signed\.pdf)$/,
  /^\/invoices\/[^/]+\/pdf$/,
  /^\/files\/[^/]+\/download$/,
  /^\/oauth\//,
  /^\/docs(\/|$)/,
  /^\/_app\//,
  /^\/favicon\.ico$/,
  /^\/sign-in$/,
  // The API and the control API have doors of their own; an address they lack is their 404.
  /^\/v1(\/|$)/,
  /^\/__admin(\/|$)/,
];

function signInPage(c: Context<AppEnv>, next: string, failed: boolean) {
  return c.html(
    <Page title="Sign in">
      <h1>Sign in</h1>
      <p>This svc is shared: its inspector and record pages ask for its admin token.</p>
      {failed ? <p class="notice bad">That is not this server's admin token.</p> : null}
      <form method="post" action="/sign-in">
        <input type="hidden" name="next" value={next} />
        <label>
          Admin token <input type="password" name="token" autocomplete="off" required />
        </label>{' '}
        <button type="submit">Sign in</button>
      </form>
    </Page>,
    401,
  );
}

/**
 * Only a path of this server, never another site (an open redirect): one slash, then what a
 * path and its query are made of. A backslash (`/\\evil` is `//evil` to a browser), a control
 * character or a raw non-ASCII one sends the person home instead.
 */
const safeNext = (next: unknown): string =>
  typeof next === 'string' && /^\/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*$/.test(next)
    ? next
    : '/';

/** The door of the web app's pages, and the sign-in form behind it. */
export function signIn(rt: Runtime): { door: MiddlewareHandler<AppEnv>; routes: Hono<AppEnv> } {
  const door: MiddlewareHandler<AppEnv> = async (c, next) => {
    const token = rt.config.adminToken;
    if (token === null || OPEN.some((open) => open.test(c.req.path)) || signedIn(c, token)) {
      return next();
    }
    const url = new URL(c.req.url);
    return signInPage(c, safeNext(c.req.method === 'GET' ? url.pathname + url.search : '/'), false);
  };
  const routes = new Hono<AppEnv>()
    .get('/sign-in', (c) => signInPage(c, safeNext(c.req.query('next')), false))
    .post('/sign-in', async (c) => {
      const form = await c.req.parseBody();
      const token = rt.config.adminToken;
      const next = safeNext(form.next);
      if (token === null) {
        return c.redirect(next, 303);
      }
      if (typeof form.token !== 'string' || !sameSecret(form.token, token)) {
        return signInPage(c, next, true);
      }
      setCookie(c, SESSION_COOKIE, sessionMark(token), {
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
      });
      return c.redirect(next, 303);
    });
  return { door, routes };
}
