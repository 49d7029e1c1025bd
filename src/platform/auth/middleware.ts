import type { Context, MiddlewareHandler } from 'hono';
import { type AppEnv, appUrlFor } from '../app-env';
import { ApiError } from '../errors';
import type { Runtime } from '../runtime';
import { identifyCredential } from './credentials';

// spec, Authentication 2: Bearer or X-API-Key, "both work on every endpoint". A Bearer header is
// the credential (a malformed one refused, never passed over for X-API-Key); an Authorization of
// another scheme (a proxy's Basic) is not this API's, and is passed over for X-API-Key.
function presentedToken(c: Context<AppEnv>): string | undefined {
  const authorization = c.req.header('Authorization');
  if (authorization !== undefined && /^Bearer(\s|$)/i.test(authorization)) {
    return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  }
  return c.req.header('X-API-Key')?.trim() || undefined;
}

/**
 * The workspace of the credential a request presents, as memory knows it now (no check made):
 * what several nodes read the versions of with the global scope's, in one query (app.ts).
 */
export function presentedWorkspace(
  rt: Pick<Runtime, 'store' | 'clocks'>,
  c: Context<AppEnv>,
): string | undefined {
  const token = presentedToken(c);
  return token === undefined
    ? undefined
    : identifyCredential(rt.store.global, token, rt.clocks)?.workspaceId;
}

// spec, Authentication 2 and 7: Bearer or X-API-Key on every endpoint; missing, wrong or revoked
// is 401. A check, not a middleware: v1.ts runs it with the plan and the rate limit in one layer.
export function authenticate(
  rt: Pick<Runtime, 'store' | 'clocks' | 'config'>,
  c: Context<AppEnv>,
): void {
  const token = presentedToken(c);
  if (token === undefined) {
    throw new ApiError(
      'unauthorized',
      'send a credential as Authorization: Bearer <API_KEY> or X-API-Key: <API_KEY>',
    );
  }
  // A revoked key is still named in the log (the call was made with it), then refused.
  const presented = identifyCredential(rt.store.global, token, rt.clocks);
  c.set('presented', presented);
  const credential = presented?.revoked ? undefined : presented;
  const workspace = credential && rt.store.global.get('workspaces', credential.workspaceId);
  if (!credential || !workspace) {
    throw new ApiError('unauthorized', 'the credential is wrong or has been revoked');
  }
  c.set('credential', credential);
  c.set('ctx', {
    ws: rt.store.workspace(workspace.id),
    workspace,
    clock: rt.clocks.of(workspace.id),
    credential,
    appUrl: appUrlFor(rt.config, c.req.url),
  });
}

// spec, Scope rule 3: a workspace without an active subscription gets 402.
export function requirePlan(c: Context<AppEnv>): void {
  if (!c.get('ctx').workspace.subscription_active) {
    throw new ApiError(
      'plan_required',
      'this workspace has no active subscription; the API is included on every paid plan',
    );
  }
}

// spec, Authentication 3: a read-only credential may read and subscribe to webhooks; any other
// write is 403. Routes that change data carry this middleware, so it answers before validation.
export const requireWrite = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (c.get('ctx').credential.access !== 'write') {
    throw new ApiError(
      'forbidden',
      'this credential is read only; use a full-access key to make changes',
    );
  }
  await next();
};
