import { ApiError, invalid } from '../platform/errors';
import { randomToken, sha256Hex } from '../platform/ids';
import type { Runtime } from '../platform/runtime';
import type { OAuthCode, OAuthScope } from './records';

// What the consent page (GET/POST {app_url}/oauth/authorize) needs from the OAuth server: the
// app a client_id names, and a code for the person's choice. The page is another module's.

export interface OAuthAppView {
  client_id: string;
  name: string;
  redirect_uris: string[];
}

export const CODE_PREFIX = 'svc_oac_';
/** spec, Limits: an authorization code is traded within ten minutes. */
export const CODE_LIFETIME_MS = 10 * 60 * 1000;

/** The registered app of a client_id, or undefined. */
export function findApp(rt: Pick<Runtime, 'store'>, clientId: string): OAuthAppView | undefined {
  const app = rt.store.global.get('oauth_apps', clientId);
  return app && { client_id: app.id, name: app.name, redirect_uris: [...app.redirect_uris] };
}

/**
 * Issues an authorization code (valid ten minutes on the clock) for the app, workspace,
 * redirect_uri (must be one the app registered exactly) and scope; answers the code text.
 * Only the code's hash is stored: the code travels in a browser's address bar.
 */
export function issueCode(
  rt: Pick<Runtime, 'store' | 'clocks'>,
  input: { clientId: string; redirectUri: string; workspaceId: string; scope: OAuthScope },
): string {
  const app = rt.store.global.get('oauth_apps', input.clientId);
  if (!app) {
    throw invalid('no app is registered with this client_id', 'client_id');
  }
  if (!app.redirect_uris.includes(input.redirectUri)) {
    throw invalid('redirect_uri is not one the app registered', 'redirect_uri');
  }
  if (!rt.store.global.get('workspaces', input.workspaceId)) {
    throw new ApiError('not_found', 'no such workspace');
  }
  const code = randomToken(CODE_PREFIX);
  const clock = rt.clocks.of(input.workspaceId);
  const record: OAuthCode = {
    id: sha256Hex(code),
    client_id: app.id,
    workspace_id: input.workspaceId,
    redirect_uri: input.redirectUri,
    scope: input.scope,
    expires_at: clock.isoOf(clock.nowMs() + CODE_LIFETIME_MS),
    connection_id: null,
  };
  rt.store.transaction((tx) => tx.global.put('oauth_codes', record));
  return code;
}
