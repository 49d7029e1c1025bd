import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../platform/app-env';
import { ApiError } from '../platform/errors';
import { errorResponse } from '../platform/errors/handler';
import { whileHeld } from '../platform/http/residency';
import type { Idempotency, KeptAnswer } from '../platform/idempotency';
import { errorResponses, standardHeaders } from '../platform/openapi/responses';
import type { Runtime } from '../platform/runtime';
import { OAuthError, type OAuthErrorCode } from './errors';
import { requestPrint, sealWith } from './idempotency';
import type { OAuthApp } from './records';
import {
  OAuthErrorSchema,
  OAuthRevokedSchema,
  OAuthTokenSchema,
  RevokeRequestSchema,
  TokenRequestSchema,
} from './schemas';
import { authenticateClient, type ClientCredentials, refresh, revoke, tradeCode } from './service';

// spec, OAuth: {base_url}/oauth/token and /oauth/revoke. They take the app's credentials, not an
// API key (v1.ts mounts them before the credential check), and answer the standard OAuth bodies
// (spec, Errors rule 2). The body is read here, not by a validator: a validator's refusal would be
// the API's envelope.

const FORM = 'application/x-www-form-urlencoded';

// Every answer here is never cached (RFC 6749 §5.1) and carries the platform's headers; a replay
// of a keyed request says so (spec, Limits); a client refused is told how to authenticate.
const oauthHeaders = standardHeaders.extend({
  'Cache-Control': z.string().optional().openapi({ description: '`no-store`' }),
  Pragma: z.string().optional().openapi({ description: '`no-cache`' }),
});
const refusedClientHeaders = oauthHeaders.extend({
  'WWW-Authenticate': z.string().optional().openapi({ description: '`Basic realm="svc"`' }),
});

const oauthAnswerDoc = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  headers: oauthHeaders,
  content: { 'application/json': { schema } },
});

const oauthError = (...codes: OAuthErrorCode[]) => ({
  ...oauthAnswerDoc(OAuthErrorSchema, `OAuth error: ${codes.join(', ')}`),
  ...(codes.includes('invalid_client') ? { headers: refusedClientHeaders } : {}),
});

const bodyOf = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { [FORM]: { schema }, 'application/json': { schema } },
});

const tokenRoute = createRoute({
  method: 'post',
  path: '/oauth/token',
  operationId: 'exchangeOAuthToken',
  summary: 'Trade an authorization code, or a refresh token, for an access token',
  tags: ['OAuth'],
  security: [],
  request: { body: bodyOf(TokenRequestSchema) },
  responses: {
    200: oauthAnswerDoc(OAuthTokenSchema, 'The access token'),
    400: oauthError('invalid_request', 'invalid_grant', 'unsupported_grant_type'),
    401: oauthError('invalid_client'),
    409: oauthError('conflict'),
    ...errorResponses('payload_too_large', 'server_error'),
  },
});

const revokeRoute = createRoute({
  method: 'post',
  path: '/oauth/revoke',
  operationId: 'revokeOAuthToken',
  summary:
    'Revoke a token (RFC 7009): a refresh token disconnects its connection, an access token ' +
    'retires itself',
  tags: ['OAuth'],
  security: [],
  request: { body: bodyOf(RevokeRequestSchema) },
  responses: {
    200: oauthAnswerDoc(
      OAuthRevokedSchema,
      'Revoked, or nothing to revoke (an unknown or missing token is answered alike)',
    ),
    400: oauthError('invalid_request'),
    401: oauthError('invalid_client'),
    409: oauthError('conflict'),
    ...errorResponses('payload_too_large', 'server_error'),
  },
});

type Fields = Record<string, string>;

/** The body's fields, form-encoded or JSON; any other shape is a malformed request. */
async function fieldsOf(c: Context<AppEnv>): Promise<Fields> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  let text: string;
  try {
    text = await c.req.text();
  } catch {
    throw new OAuthError('invalid_request', 'the request body is not valid JSON'); // not UTF-8
  }
  if (type === FORM) {
    const params = new URLSearchParams(text);
    const out: Fields = {};
    for (const [key, value] of params) {
      // RFC 6749 §3.2: a parameter sent twice is refused, so no reader picks a different one.
      if (key in out) {
        throw new OAuthError('invalid_request', `${key} is sent more than once`);
      }
      out[key] = value;
    }
    return out;
  }
  if (type === 'application/json' || type.endsWith('+json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new OAuthError('invalid_request', 'the request body is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new OAuthError('invalid_request', 'the request body must be a JSON object');
    }
    const out: Fields = {};
    for (const [key, value] of Object.entries(parsed)) {
      if (typeof value !== 'string') {
        throw new OAuthError('invalid_request', `${key} must be a string`);
      }
      out[key] = value;
    }
    return out;
  }
  throw new OAuthError(
    'invalid_request',
    `send the parameters form-encoded (${FORM}) or as JSON (application/json)`,
  );
}

function basicCredentials(c: Context<AppEnv>): ClientCredentials | undefined {
  const header = c.req.header('authorization');
  const match = header === undefined ? null : /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) {
    return undefined;
  }
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) {
    throw new OAuthError('invalid_client', 'the HTTP Basic credentials are malformed');
  }
  try {
    // RFC 6749 §2.3.1: both halves are form-encoded before they are joined.
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return {
      clientId: unform(decoded.slice(0, colon)),
      clientSecret: unform(decoded.slice(colon + 1)),
    };
  } catch {
    throw new OAuthError('invalid_client', 'the HTTP Basic credentials are malformed');
  }
}

/** RFC 6749 §2.3: one way of sending the client's credentials, Basic or the body. */
function clientOf(c: Context<AppEnv>, fields: Fields): ClientCredentials | undefined {
  const basic = basicCredentials(c);
  if (basic) {
    if (fields.client_secret !== undefined) {
      throw new OAuthError(
        'invalid_request',
        'send the client credentials one way: HTTP Basic or the body, not both',
      );
    }
    if (fields.client_id !== undefined && fields.client_id !== basic.clientId) {
      throw new OAuthError('invalid_client', 'client_id differs from the HTTP Basic user');
    }
    return basic;
  }
  if (fields.client_id === undefined || fields.client_secret === undefined) {
    return undefined;
  }
  return { clientId: fields.client_id, clientSecret: fields.client_secret };
}

function required(fields: Fields, name: string): string {
  const value = fields[name];
  if (value === undefined || value === '') {
    throw new OAuthError('invalid_request', `${name} is required`);
  }
  return value;
}

function oauthAnswer(c: Context<AppEnv>, err: OAuthError): Response {
  return answer(c, { status: err.status, body: errorBody(err), replayed: false });
}

const errorBody = (err: OAuthError) =>
  JSON.stringify({ error: err.code, error_description: err.message });

/** An answer of either endpoint, kept or not: JSON, never cached (RFC 6749 §5.1). */
function answer(c: Context<AppEnv>, a: KeptAnswer & { replayed: boolean }): Response {
  c.header('Cache-Control', 'no-store');
  c.header('Pragma', 'no-cache');
  if (a.status === 401) {
    // RFC 6749 §5.2: a client refused on 401 is told how to authenticate.
    c.header('WWW-Authenticate', 'Basic realm="svc"');
  }
  if (a.replayed) {
    c.header('Idempotent-Replayed', 'true');
  }
  c.header('Content-Type', 'application/json');
  return c.body(a.body, a.status as 200);
}

/**
 * On PostgreSQL, the workspaces the app is connected to, loaded (store/residency.ts): a code traded
 * twice, or a refresh token revoked, disconnects and switches off the webhooks made there.
 */
async function holdConnected(rt: Rt, app: OAuthApp): Promise<() => void> {
  const residency = rt.store.residency;
  if (residency === undefined) {
    return () => {};
  }
  // A trade writes the global scope (codes, tokens) and, refused, the workspaces it disconnects.
  // With several nodes the global scope's lease comes first: under it the connections are as
  // the last trade left them (one on another node, a moment ago, made the one a second trade of
  // its code disconnects), and their workspaces are leased after it, in the one order.
  const global = await residency.holdAll([], { global: true, lease: 'all', turn: true });
  try {
    const connected = new Set<string>();
    for (const connection of rt.store.global.values('oauth_connections')) {
      if (connection.client_id === app.id) {
        connected.add(connection.workspace_id);
      }
    }
    const workspaces = await residency.holdAll(connected, { lease: 'all', turn: true });
    return () => {
      workspaces();
      global();
    };
  } catch (err) {
    global();
    throw err;
  }
}

/** The workspace a token answer grants access to; a revocation's `{}` names none. */
const workspaceOf = (body: object): string | undefined => {
  const id = (body as { workspace_id?: unknown }).workspace_id;
  return typeof id === 'string' ? id : undefined;
};

/** What a request does once its client is known; its own checks are made before that. */
type Act = (app: OAuthApp) => object;

// RFC 6749 §5.2: a malformed request is invalid_request whoever sends it, so the body's shape is
// checked before the client; the grant itself only once the client is known.
function tokenAct(rt: Rt, fields: Fields): Act {
  const grantType = required(fields, 'grant_type');
  if (grantType === 'authorization_code') {
    const input = { code: required(fields, 'code'), redirectUri: required(fields, 'redirect_uri') };
    return (app) => tradeCode(rt, app, input);
  }
  if (grantType === 'refresh_token') {
    const token = required(fields, 'refresh_token');
    return (app) => refresh(rt, app, token);
  }
  throw new OAuthError(
    'unsupported_grant_type',
    'grant_type must be authorization_code or refresh_token',
  );
}

// RFC 7009 §2.1: token_type_hint is only a hint; "an invalid token type hint value is ignored by
// the authorization server and does not influence the revocation response". §2.2: the body of
// the 200 is for the client to ignore, and it is `{}` so that clients that read every answer as
// JSON can (simple-oauth2's revoke threw on an empty one).
// spec, OAuth: "Always 200 for a known app": a request that names no token revokes nothing.
function revokeAct(rt: Rt, fields: Fields): Act {
  const token = fields.token;
  return (app) => {
    if (token !== undefined && token !== '') {
      revoke(rt, app, token);
    }
    return {};
  };
}

/**
 * Either endpoint: the body read, the request's own checks, the client, then the act, run once
 * per Idempotency-Key (spec, Endpoints; decisions.md, OAuth): a retry with the key is the first
 * answer again, an invalid_grant included, so a client retrying a dropped code exchange as the
 * spec advises gets its tokens instead of spending the code twice and losing the connection.
 */
async function serve(
  rt: Rt,
  c: Context<AppEnv>,
  actFor: (rt: Rt, fields: Fields) => Act,
): Promise<Response> {
  try {
    const fields = await fieldsOf(c);
    const act = actFor(rt, fields);
    const client = clientOf(c, fields);
    const app = authenticateClient(rt, client);
    const run = async (): Promise<KeptAnswer> => {
      try {
        const body = await whileHeld(holdConnected(rt, app), async () => act(app));
        return { status: 200, body: JSON.stringify(body), workspaceId: workspaceOf(body) };
      } catch (err) {
        if (err instanceof OAuthError) {
          return { status: err.status, body: errorBody(err) };
        }
        throw err;
      }
    };
    const key = c.req.header('Idempotency-Key');
    if (key === undefined || client === undefined) {
      return answer(c, { ...(await run()), replayed: false });
    }
    const sent = {
      scope: `oauth_app:${app.id}`,
      key,
      fingerprint: requestPrint(c.req.path, fields),
      seal: sealWith(client.clientSecret, key),
    };
    return answer(c, await rt.idempotency.once(sent, run));
  } catch (err) {
    if (err instanceof OAuthError) {
      return oauthAnswer(c, err);
    }
    if (err instanceof ApiError && (err.code === 'conflict' || err.code === 'invalid_request')) {
      // The key's own refusals, in the OAuth body (spec, Errors rule 2) with the spec's codes.
      return oauthAnswer(c, new OAuthError(err.code, err.message));
    }
    throw err;
  }
}

type Rt = Pick<Runtime, 'store' | 'clock' | 'clocks'> & { idempotency: Idempotency };

export function oauthRoutes(rt: Rt): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  app.openAPIRegistry.registerPath(tokenRoute);
  app.openAPIRegistry.registerPath(revokeRoute);
  app.post(tokenRoute.path, (c) => serve(rt, c, tokenAct));
  app.post(revokeRoute.path, (c) => serve(rt, c, revokeAct));
  // Another verb would fall through to the credential check and ask for an API key.
  for (const path of [tokenRoute.path, revokeRoute.path]) {
    app.all(path, (c) =>
      errorResponse(
        c,
        new ApiError(
          'method_not_allowed',
          `${c.req.method} is not allowed here; use POST`,
          undefined,
          {
            Allow: 'POST',
          },
        ),
      ),
    );
  }
  return app;
}
