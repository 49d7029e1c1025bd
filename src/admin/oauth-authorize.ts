import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { issueCode } from '../oauth';
import { checkClient, checkScope, checkState, type Params, Refusal } from '../oauth/consent-checks';
import { redirectTo } from '../oauth/consent-routes';
import type { AppEnv } from '../platform/app-env';
import { ApiError } from '../platform/errors';
import { adminWriteErrors, jsonResponse } from '../platform/openapi/responses';
import type { Runtime } from '../platform/runtime';
import { jsonBody } from '../resources/common/routing';

// decisions.md, OAuth: the consent page's answer without a browser, for tests. The same checks
// the page makes, in the page's order, each refusal a 400 naming its field; then the redirect the
// page would have made (a code for the workspace, or access_denied), given as `location` instead
// of followed. The consent page itself is unchanged: its anti-forgery token stays.

export const AuthorizeSchema = z
  .object({
    client_id: z.string(),
    redirect_uri: z.string(),
    state: z.string(),
    scope: z.enum(['read', 'write']).optional().openapi({ default: 'write' }),
    workspace_id: z.string(),
    decision: z.enum(['allow', 'deny']),
  })
  .openapi('AdminOAuthAuthorize');

const LocationSchema = z
  .object({
    location: z.string().openapi({
      description:
        "redirect_uri with `code` and `state` added (allow), or `error=access_denied` and `state` (deny), as the consent page's 302 would send the browser",
    }),
  })
  .openapi('AdminOAuthLocation');

const authorize = createRoute({
  method: 'post',
  path: '/oauth/authorize',
  operationId: 'authorizeOAuthApp',
  summary:
    "The consent page's answer for tests without a browser: its checks, then the redirect it would make",
  request: { body: jsonBody(AuthorizeSchema) },
  responses: {
    200: jsonResponse(LocationSchema, 'Where the consent page would send the browser'),
    ...adminWriteErrors('invalid_request'),
  },
});

/**
 * The location the consent page would redirect to for `body`, after the page's checks in the
 * page's order (client, redirect_uri, scope, state, decision, workspace): `body` as sent, not as
 * the schema read it, so a field the schema would refuse first (a number, an empty scope the page
 * takes as none) is judged where the page judges it. Parameters it does not know are ignored, as
 * the page ignores them. `scope`: a control token's workspace.
 */
function decide(rt: Runtime, body: unknown, scope: string | undefined): string {
  const given = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const get: Params = (name) => {
    const value = given[name];
    if (value !== undefined && typeof value !== 'string') {
      throw new Refusal(400, 'Not text', `${name} must be a string`, name);
    }
    return value;
  };
  const { app, redirectUri } = checkClient(rt, get);
  const asked = checkScope(get);
  const state = checkState(get);
  const decision = get('decision');
  if (decision !== 'allow' && decision !== 'deny') {
    throw new Refusal(400, 'No decision', 'decision must be allow or deny', 'decision');
  }
  const named = get('workspace_id');
  const workspaceId = typeof named === 'string' ? named.toLowerCase() : '';
  if (scope !== undefined && workspaceId !== scope) {
    throw new ApiError('forbidden', 'a control token connects its own workspace only');
  }
  if (!rt.store.global.get('workspaces', workspaceId)) {
    throw new Refusal(400, 'Unknown workspace', 'workspace_id names no workspace', 'workspace_id');
  }
  if (decision === 'deny') {
    return redirectTo(redirectUri, { error: 'access_denied', state });
  }
  const code = issueCode(rt, { clientId: app.client_id, redirectUri, workspaceId, scope: asked });
  return redirectTo(redirectUri, { code, state });
}

export function oauthAuthorizeAdmin(rt: Runtime) {
  const answer = (c: Context<AppEnv>, body: unknown) => {
    try {
      return c.json({ location: decide(rt, body, c.get('adminScope')) }, 200);
    } catch (err) {
      if (err instanceof Refusal) {
        throw new ApiError('invalid_request', err.message, err.field ?? undefined);
      }
      throw err;
    }
  };
  return new OpenAPIHono<AppEnv>().openapi(
    authorize,
    (c) => answer(c, c.req.valid('json')),
    // The schema documents the body; the page's own order of checks judges it.
    (result, c) =>
      // @hono/zod-validator hands the hook the body as sent (`data`); its type leaves it out.
      result.success ? undefined : answer(c, (result as { data?: unknown }).data),
  );
}
