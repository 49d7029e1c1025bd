import { createHmac } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { sameSecret } from '../auth';

// decisions.md, Control API access: a person who gave the admin token at /sign-in carries this
// cookie; it holds a mark made from the token, never the token.

export const SESSION_COOKIE = 'svc_admin';

/** What the cookie holds for `token`. */
export const sessionMark = (token: string): string =>
  createHmac('sha256', token).update('svc web app session').digest('base64url');

/** Whether the request carries the cookie of a sign-in with `token`. */
export function signedIn(c: Context, token: string): boolean {
  const mark = getCookie(c, SESSION_COOKIE);
  return mark !== undefined && sameSecret(mark, sessionMark(token));
}
