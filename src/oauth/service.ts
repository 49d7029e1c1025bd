import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../platform/errors';
import { newId, randomToken, sha256Hex } from '../platform/ids';
import type { Runtime } from '../platform/runtime';
import { disableWebhooksOf } from '../resources/webhooks/service';
import type { Tx, TxScope } from '../store';
import type { GlobalCollections } from '../store/collections';
import { OAuthError } from './errors';
import type { OAuthApp, OAuthConnection, OAuthScope } from './records';

export const ACCESS_PREFIX = 'svc_oat_';
export const REFRESH_PREFIX = 'svc_ort_';
const SECRET_PREFIX = 'svc_ocs_';
/** spec, Limits: an access token is valid 3600 seconds. */
export const ACCESS_LIFETIME_S = 3600;

type Rt = Pick<Runtime, 'store' | 'clock' | 'clocks'>;

export interface TokenGrant {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: OAuthScope;
  workspace_id: string;
  workspace: string | null;
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

// ---- apps (the operator's) ----

export function registerApp(
  rt: Rt,
  input: { name: string; redirect_uris: string[] },
): { client_id: string; client_secret: string } {
  const secret = randomToken(SECRET_PREFIX);
  const app: OAuthApp = {
    id: newId(),
    object: 'oauth_app',
    name: input.name,
    redirect_uris: [...new Set(input.redirect_uris)],
    secret_hash: sha256Hex(secret),
    created_at: rt.clock.iso(),
  };
  rt.store.transaction((tx) => tx.global.put('oauth_apps', app));
  return { client_id: app.id, client_secret: secret };
}

export const presentApp = (app: OAuthApp) => ({
  client_id: app.id,
  object: app.object,
  name: app.name,
  redirect_uris: app.redirect_uris,
  created_at: app.created_at,
});

export const listApps = (rt: Rt) =>
  [...rt.store.global.values('oauth_apps')]
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    .map(presentApp);

/**
 * The app whose id and secret these are. The secret is compared as hashes of equal length in
 * constant time, so the answer's timing says nothing about how much of a guess was right.
 */
export function authenticateClient(rt: Rt, creds: ClientCredentials | undefined): OAuthApp {
  if (!creds) {
    throw new OAuthError(
      'invalid_client',
      'send client_id and client_secret in the body or as HTTP Basic',
    );
  }
  const app = rt.store.global.get('oauth_apps', creds.clientId);
  const given = Buffer.from(sha256Hex(creds.clientSecret), 'hex');
  const want = Buffer.from(app?.secret_hash ?? sha256Hex(''), 'hex');
  if (!app || !timingSafeEqual(given, want)) {
    throw new OAuthError('invalid_client', 'the client_id or client_secret is wrong');
  }
  return app;
}

// ---- grants ----

function issueTokens(
  tx: TxScope<GlobalCollections>,
  rt: Rt,
  connection: OAuthConnection,
  refreshToken?: string,
): TokenGrant {
  const access = randomToken(ACCESS_PREFIX);
  // Tokens live on their workspace's clock, as the records of the workspace do.
  const clock = rt.clocks.of(connection.workspace_id);
  const nowMs = clock.nowMs();
  tx.put('oauth_tokens', {
    id: sha256Hex(access),
    kind: 'access',
    connection_id: connection.id,
    expires_at: clock.isoOf(nowMs + ACCESS_LIFETIME_S * 1000),
    revoked_at: null,
  });
  let refresh = refreshToken;
  if (refresh === undefined) {
    refresh = randomToken(REFRESH_PREFIX);
    tx.put('oauth_tokens', {
      id: sha256Hex(refresh),
      kind: 'refresh',
      connection_id: connection.id,
      expires_at: null,
      revoked_at: null,
    });
  }
  const workspace = tx.get('workspaces', connection.workspace_id);
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_LIFETIME_S,
    refresh_token: refresh,
    scope: connection.scope,
    workspace_id: connection.workspace_id,
    workspace: workspace?.name ?? null,
  };
}

/** spec, Authentication 5: a code is traded once, within ten minutes, by its app. */
export function tradeCode(
  rt: Rt,
  app: OAuthApp,
  input: { code: string; redirectUri: string },
): TokenGrant {
  // One transaction: a code traded twice at once makes one connection and one refusal.
  const outcome = rt.store.transaction((tx): TokenGrant | OAuthError => {
    const code = tx.global.get('oauth_codes', sha256Hex(input.code));
    if (!code || code.client_id !== app.id) {
      return new OAuthError('invalid_grant', 'the code is unknown or was issued to another app');
    }
    if (code.connection_id !== null) {
      // RFC 6749 §4.1.2: a code presented again may have been stolen; what it granted stops.
      disconnect(tx, rt, code.connection_id);
      return new OAuthError(
        'invalid_grant',
        'the code has been used already; the connection it made is disconnected',
      );
    }
    if (rt.clocks.of(code.workspace_id).nowMs() >= Date.parse(code.expires_at)) {
      return new OAuthError('invalid_grant', 'the code has expired (codes last ten minutes)');
    }
    if (code.redirect_uri !== input.redirectUri) {
      return new OAuthError(
        'invalid_grant',
        'redirect_uri is not the one the code was authorised for',
      );
    }
    if (!tx.global.get('workspaces', code.workspace_id)) {
      return new OAuthError('invalid_grant', 'the workspace of this code no longer exists');
    }
    const connection: OAuthConnection = {
      id: newId(),
      object: 'connection',
      client_id: app.id,
      workspace_id: code.workspace_id,
      scope: code.scope,
      created_at: rt.clocks.of(code.workspace_id).iso(),
      disconnected_at: null,
    };
    tx.global.put('oauth_connections', connection);
    tx.global.put('oauth_codes', { ...code, connection_id: connection.id });
    return issueTokens(tx.global, rt, connection);
  });
  if (outcome instanceof OAuthError) {
    throw outcome;
  }
  return outcome;
}

/** spec, Authentication 5: a refresh token gets new access tokens and is itself kept. */
export function refresh(rt: Rt, app: OAuthApp, refreshToken: string): TokenGrant {
  return rt.store.transaction((tx) => {
    const token = tx.global.get('oauth_tokens', sha256Hex(refreshToken));
    const connection = token && tx.global.get('oauth_connections', token.connection_id);
    if (
      token?.kind !== 'refresh' ||
      !connection ||
      connection.client_id !== app.id ||
      connection.disconnected_at !== null ||
      !tx.global.get('workspaces', connection.workspace_id)
    ) {
      throw new OAuthError(
        'invalid_grant',
        'the refresh token is unknown, disconnected or was issued to another app',
      );
    }
    return issueTokens(tx.global, rt, connection, refreshToken);
  });
}

/**
 * RFC 7009: a refresh token disconnects its connection, an access token retires itself. A token
 * that is unknown, or another app's, changes nothing and is answered alike (§2.2: 200).
 */
export function revoke(rt: Rt, app: OAuthApp, tokenText: string): void {
  rt.store.transaction((tx) => {
    const token = tx.global.get('oauth_tokens', sha256Hex(tokenText));
    const connection = token && tx.global.get('oauth_connections', token.connection_id);
    if (!token || !connection || connection.client_id !== app.id) {
      return;
    }
    if (token.kind === 'refresh') {
      disconnect(tx, rt, connection.id);
    } else if (token.revoked_at === null) {
      tx.global.put('oauth_tokens', {
        ...token,
        revoked_at: rt.clocks.of(connection.workspace_id).iso(),
      });
    }
  });
}

// ---- connections ----

/**
 * Stops a connection at once: its tokens are refused from now on (they read the connection), and
 * the webhooks it created are switched off, as revoking an API key does. Twice is harmless.
 */
function disconnect(tx: Tx, rt: Rt, connectionId: string): OAuthConnection | undefined {
  const connection = tx.global.get('oauth_connections', connectionId);
  if (!connection || connection.disconnected_at !== null) {
    return connection;
  }
  const now = rt.clocks.of(connection.workspace_id).iso();
  if (tx.global.get('workspaces', connection.workspace_id)) {
    disableWebhooksOf(tx.workspace(connection.workspace_id), connection.id, now);
  }
  return tx.global.put('oauth_connections', { ...connection, disconnected_at: now });
}

export function presentConnection(rt: Rt, connection: OAuthConnection) {
  const app = rt.store.global.get('oauth_apps', connection.client_id);
  return {
    id: connection.id,
    object: connection.object,
    workspace_id: connection.workspace_id,
    client_id: connection.client_id,
    app_name: app?.name ?? null,
    scope: connection.scope,
    created_at: connection.created_at,
    disconnected_at: connection.disconnected_at,
  };
}

function workspaceOf(rt: Rt, workspaceId: string) {
  const workspace = rt.store.global.get('workspaces', workspaceId);
  if (!workspace) {
    throw new ApiError('not_found', 'no such workspace');
  }
  return workspace;
}

/** A workspace's connections, oldest first, disconnected ones included (with when). */
export function listConnections(rt: Rt, workspaceId: string) {
  workspaceOf(rt, workspaceId);
  return [...rt.store.global.values('oauth_connections')]
    .filter((c) => c.workspace_id === workspaceId)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    .map((c) => presentConnection(rt, c));
}

export function deleteConnection(rt: Rt, workspaceId: string, connectionId: string) {
  workspaceOf(rt, workspaceId);
  const connection = rt.store.transaction((tx) => {
    const found = tx.global.get('oauth_connections', connectionId);
    if (!found || found.workspace_id !== workspaceId) {
      throw new ApiError('not_found', 'no such connection');
    }
    return disconnect(tx, rt, connectionId) ?? found;
  });
  return presentConnection(rt, connection);
}
