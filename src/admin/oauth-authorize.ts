import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
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
    scope: z
      .enum(['read', 'write', ''])
      .optional()
      .openapi({ description: 'read, or write (absent or empty: write, as on the page)' }),
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

type Asked = z.infer<typeof AuthorizeSchema>;

/**
 * The location the consent page would redirect to for `asked`: its shape checked by the schema
 * first (each field a string, `scope` and `decision` one of theirs), as on every route; then the
 * page's own checks in the page's order (client, redirect_uri, scope, state, then the workspace).
 * Parameters it does not know are ignored, as the page ignores them. `scope`: a control token's
 * workspace.
 */
function decide(rt: Runtime, asked: Asked, scope: string | undefined): string {
  const get: Params = (name) => {
    const value = asked[name as keyof Asked];
    return typeof value === 'string' ? value : undefined;
  };
  const { app, redirectUri } = checkClient(rt, get);
  const access = checkScope(get);
  const state = checkState(get);
  const workspaceId = asked.workspace_id.toLowerCase();
  if (scope !== undefined && workspaceId !== scope) {
    throw new ApiError('forbidden', 'a control token connects its own workspace only');
  }
  if (!rt.store.global.get('workspaces', workspaceId)) {
    throw new Refusal(400, 'Unknown workspace', 'workspace_id names no workspace', 'workspace_id');
  }
  if (asked.decision === 'deny') {
    return redirectTo(redirectUri, { error: 'access_denied', state });
  }
  const code = issueCode(rt, { clientId: app.client_id, redirectUri, workspaceId, scope: access });
  return redirectTo(redirectUri, { code, state });
}

export function oauthAuthorizeAdmin(rt: Runtime) {
  return new OpenAPIHono<AppEnv>().openapi(authorize, (c) => {
    try {
      const location = decide(rt, c.req.valid('json'), c.get('adminScope'));
      return c.json({ location }, 200);
    } catch (err) {
      if (err instanceof Refusal) {
        throw new ApiError('invalid_request', err.message, err.field ?? undefined);
      }
      throw err;
    }
  });
}
