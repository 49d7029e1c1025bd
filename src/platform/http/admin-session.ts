import { createHmac } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { sameSecret } from '../auth';
import type { Runtime } from '../runtime';

// decisions.md, Control API access: a person who gave the admin token at /sign-in carries this
// cookie; one who gave a workspace's control token carries one naming that token by its sha256.
// Either holds a mark made with the admin token, never a token, so it cannot be made elsewhere.

export const SESSION_COOKIE = 'svc_admin';

/** Who a sign-in is: the admin, or workspace `id`'s people (its control token). */
export type WebSession = { kind: 'admin' } | { kind: 'workspace'; id: string };

const mark = (adminToken: string, of: string): string =>
  createHmac('sha256', adminToken).update(`svc web app session${of}`).digest('base64url');

/** What the cookie holds for a sign-in with the admin token. */
export const adminSession = (adminToken: string): string => mark(adminToken, '');

/** What the cookie holds for a sign-in with the control token whose sha256 is `tokenHash`. */
export const workspaceSession = (adminToken: string, tokenHash: string): string =>
  `${tokenHash}.${mark(adminToken, ` of ${tokenHash}`)}`;

/**
 * The sign-in the request's cookie carries on a server whose admin token is `adminToken`;
 * undefined when none, or when its control token's workspace is gone.
 */
export function sessionOf(
  c: Context,
  rt: Pick<Runtime, 'store'>,
  adminToken: string,
): WebSession | undefined {
  const held = getCookie(c, SESSION_COOKIE);
  if (held === undefined) {
    return undefined;
  }
  const dot = held.indexOf('.');
  if (dot === -1) {
    return sameSecret(held, adminSession(adminToken)) ? { kind: 'admin' } : undefined;
  }
  const tokenHash = held.slice(0, dot);
  if (!sameSecret(held, workspaceSession(adminToken, tokenHash))) {
    return undefined;
  }
  const token = rt.store.global.get('control_tokens', tokenHash);
  return token && rt.store.global.get('workspaces', token.workspace_id)
    ? { kind: 'workspace', id: token.workspace_id }
    : undefined;
}
