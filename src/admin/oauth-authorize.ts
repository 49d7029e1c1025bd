import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { issueCode } from '../oauth';
import { checkClient, checkScope, checkState, type Params, Refusal } from '../oauth/consent-checks';
import { redirectTo } from '../oauth/consent-routes';
import type { AppEnv } from '../platform/app-env';
import { ApiError } from '../platform/errors';
import { adminWriteErrors, jsonResponse } from '../platform/openapi/responses';
import type { Runtime } from '../platform/runtime';
import { jsonBody } from '../resources/common/routing';
import { scopedTo } from './access';

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

type Asked = z.infer<typeof AuthorizeSchema>;

/** The location the consent page would redirect to for `asked`. */
function decide(rt: Runtime, asked: Asked, workspaceId: string): string {
  const get: Params = (name) => {
    const value = asked[name as keyof Asked];
    return typeof value === 'string' ? value : undefined;
  };
  const { app, redirectUri } = checkClient(rt, get);
  const scope = checkScope(get);
  const state = checkState(get);
  if (!rt.store.global.get('workspaces', workspaceId)) {
    throw new Refusal(400, 'Unknown workspace', 'workspace_id names no workspace', 'workspace_id');
  }
  if (asked.decision === 'deny') {
    return redirectTo(redirectUri, { error: 'access_denied', state });
  }
  const code = issueCode(rt, { clientId: app.client_id, redirectUri, workspaceId, scope });
  return redirectTo(redirectUri, { code, state });
}

export function oauthAuthorizeAdmin(rt: Runtime) {
  return new OpenAPIHono<AppEnv>().openapi(authorize, (c) => {
    const asked = c.req.valid('json');
    // A control token connects its own workspace alone (403 for another's).
    const workspaceId = scopedTo(c, asked.workspace_id.toLowerCase()) ?? '';
    try {
      return c.json({ location: decide(rt, asked, workspaceId) }, 200);
    } catch (err) {
      if (err instanceof Refusal) {
        throw new ApiError('invalid_request', err.message, err.field ?? undefined);
      }
      throw err;
    }
  });
}
