import { registerCredentialKind } from '../platform/auth';
import { sha256Hex } from '../platform/ids';
import { ACCESS_PREFIX } from './service';

// spec, Authentication 5: an access token is a credential of its connection's workspace, named
// after the app, with the connection's scope. Its id is the connection's, so the request log,
// the rate limit and the webhooks it creates are the connection's, whichever token made the call.
// It expires on its workspace's clock. A retired, expired or disconnected token is still identified (the log keeps the call) but
// refused.
registerCredentialKind(ACCESS_PREFIX, (global, token, clocks) => {
  const record = global.get('oauth_tokens', sha256Hex(token));
  const connection = record && global.get('oauth_connections', record.connection_id);
  if (record?.kind !== 'access' || !connection) {
    return undefined;
  }
  const app = global.get('oauth_apps', connection.client_id);
  const stopped =
    record.revoked_at !== null ||
    connection.disconnected_at !== null ||
    record.expires_at === null ||
    clocks.of(connection.workspace_id).nowMs() >= Date.parse(record.expires_at);
  return {
    kind: 'oauth_token',
    id: connection.id,
    workspaceId: connection.workspace_id,
    access: connection.scope,
    name: app?.name ?? 'OAuth app',
    ...(stopped ? { revoked: true as const } : {}),
  };
});
