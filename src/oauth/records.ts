import type { Rec } from '../store';

export type OAuthScope = 'read' | 'write';

/** An app the operator registered; the client_id is its id. Only the secret's hash is kept. */
export type OAuthApp = Rec & {
  object: 'oauth_app';
  name: string;
  redirect_uris: string[];
  secret_hash: string;
  created_at: string;
};

/** An authorization code, keyed by the code's sha256: the code itself is never stored. */
export type OAuthCode = Rec & {
  client_id: string;
  workspace_id: string;
  redirect_uri: string;
  scope: OAuthScope;
  expires_at: string;
  /** Set when the code is traded; a second trade disconnects this connection. */
  connection_id: string | null;
};

/** One app's grant on one workspace: what the tokens of one code exchange belong to. */
export type OAuthConnection = Rec & {
  object: 'connection';
  client_id: string;
  workspace_id: string;
  scope: OAuthScope;
  created_at: string;
  disconnected_at: string | null;
};

/** An access or refresh token, keyed by the token's sha256. */
export type OAuthToken = Rec & {
  kind: 'access' | 'refresh';
  connection_id: string;
  /** Access tokens only: 3600 s after issue. */
  expires_at: string | null;
  revoked_at: string | null;
};

declare module '../store/collections' {
  interface GlobalCollections {
    oauth_apps: OAuthApp;
    oauth_codes: OAuthCode;
    oauth_connections: OAuthConnection;
    oauth_tokens: OAuthToken;
  }
}
