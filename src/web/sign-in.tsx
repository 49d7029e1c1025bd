import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { setCookie } from 'hono/cookie';
import type { AppEnv } from '../platform/app-env';
import { CONTROL_TOKEN_PREFIX, sameSecret } from '../platform/auth';
import {
  adminSession,
  SESSION_COOKIE,
  sessionOf,
  workspaceSession,
} from '../platform/http/admin-session';
import { withWorkspace } from '../platform/http/residency';
import { sha256Hex } from '../platform/ids';
import type { Runtime } from '../platform/runtime';
import { webRefusal } from './scope';
import { Page } from './ui/layout';

// decisions.md, Control API access: on a server started with --admin-token, the inspector, the
// dashboard and the record pages ask for the token once, and a cookie remembers it (HttpOnly,
// SameSite=Strict, never the token itself). A workspace's control token signs in too, to that
// workspace alone (./scope.ts). The homeowner's pages (a portal, an estimate's view,
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
      <p>
        This svc is shared: its inspector and record pages ask for its admin token, or a workspace's
        control token (<code>svc_ctl_…</code>) for that workspace alone.
      </p>
      {failed ? (
        <p class="notice bad">That is neither this server's admin token nor a control token.</p>
      ) : null}
      <form method="post" action="/sign-in">
        <input type="hidden" name="next" value={next} />
        <label>
          Token <input type="password" name="token" autocomplete="off" required />
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

function refusedPage(c: Context<AppEnv>, what: string) {
  return c.html(
    <Page title="Not this workspace's">
      <h1>Not for this sign-in</h1>
      <p>
        You signed in with a workspace's control token: it opens that workspace's pages alone, not{' '}
        {what}. <a href="/sign-in">Sign in</a> with the admin token to see the whole server.
      </p>
    </Page>,
    403,
  );
}

/** What the cookie is to hold for `given`, a token typed at /sign-in; undefined: no such token. */
function sessionFor(rt: Runtime, adminToken: string, given: unknown): string | undefined {
  if (typeof given !== 'string') {
    return undefined;
  }
  if (given.startsWith(CONTROL_TOKEN_PREFIX)) {
    const hash = sha256Hex(given);
    const held = rt.store.global.get('control_tokens', hash);
    return held && rt.store.global.get('workspaces', held.workspace_id)
      ? workspaceSession(adminToken, hash)
      : undefined;
  }
  return sameSecret(given, adminToken) ? adminSession(adminToken) : undefined;
}

/** The door of the web app's pages, and the sign-in form behind it. */
export function signIn(rt: Runtime): { door: MiddlewareHandler<AppEnv>; routes: Hono<AppEnv> } {
  const door: MiddlewareHandler<AppEnv> = async (c, next) => {
    const token = rt.config.adminToken;
    if (token === null || OPEN.some((open) => open.test(c.req.path))) {
      return next();
    }
    const who = sessionOf(c, rt, token);
    if (who?.kind === 'admin') {
      return next();
    }
    if (who?.kind === 'workspace') {
      // Its own workspace loaded first: the refusal reads what it holds.
      return withWorkspace(rt.store, who.id, async () => {
        const refusal = webRefusal(rt, c.req.method, c.req.path, (n) => c.req.query(n), who.id);
        if (refusal !== undefined) {
          return refusedPage(c, refusal);
        }
        c.set('adminScope', who.id);
        return next();
      });
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
      const session = sessionFor(rt, token, form.token);
      if (session === undefined) {
        return signInPage(c, next, true);
      }
      setCookie(c, SESSION_COOKIE, session, {
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
      });
      return c.redirect(next, 303);
    });
  return { door, routes };
}
